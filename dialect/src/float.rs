//! The small floating-point formats of device code (float16, bfloat16 and
//! the two float8s) and their one rounding rule: a float64 rounded to
//! nearest, ties to even, once. The frontend folds constants with it
//! (`frontends/python/src/consts.rs`), the host runtime's `__truncdfhf2`
//! family converts with it (`runtime/src/host/abi.rs`), and the Python
//! package's stand-in for ml_dtypes (`pydev._types.soft_encode`) is tested
//! against it (python/tests/test_facts.py), its formats exported to
//! `pydev._facts.SMALL_FLOATS`.

/// A binary floating-point format with the IEEE layout (sign, exponent,
/// mantissa): `finite_only` formats (float8e4m3, CUDA's `__nv_fp8_e4m3`,
/// ml_dtypes' e4m3fn) have no infinity, and their all-ones exponent holds
/// normal numbers but for the one NaN (all ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallFloat {
    /// The device-code type name (`float16`, `bfloat16`, `float8e4m3`, `float8e5m2`).
    pub name: &'static str,
    pub exp_bits: u32,
    pub man_bits: u32,
    pub finite_only: bool,
}

pub const FLOAT16: SmallFloat = SmallFloat { name: "float16", exp_bits: 5, man_bits: 10, finite_only: false };
pub const BFLOAT16: SmallFloat = SmallFloat { name: "bfloat16", exp_bits: 8, man_bits: 7, finite_only: false };
pub const FLOAT8E4M3: SmallFloat = SmallFloat { name: "float8e4m3", exp_bits: 4, man_bits: 3, finite_only: true };
pub const FLOAT8E5M2: SmallFloat = SmallFloat { name: "float8e5m2", exp_bits: 5, man_bits: 2, finite_only: false };

/// Every small format.
pub const SMALL_FLOATS: &[SmallFloat] = &[FLOAT16, BFLOAT16, FLOAT8E4M3, FLOAT8E5M2];

/// 2^k as a float64 (k in the normal range).
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

impl SmallFloat {
    pub fn by_name(name: &str) -> Option<Self> {
        SMALL_FLOATS.iter().copied().find(|f| f.name == name)
    }

    fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }

    fn sign_bit(self) -> u64 {
        1 << (self.exp_bits + self.man_bits)
    }

    /// The bits of the canonical (positive, quiet) NaN.
    pub fn nan(self) -> u64 {
        if self.finite_only {
            self.sign_bit() - 1
        } else {
            (((1 << self.exp_bits) - 1) << self.man_bits) | (1 << (self.man_bits - 1))
        }
    }

    /// The bits of +infinity: the NaN in a finite-only format, where too
    /// large values become NaN.
    pub fn inf(self) -> u64 {
        if self.finite_only {
            self.nan()
        } else {
            ((1 << self.exp_bits) - 1) << self.man_bits
        }
    }

    /// The bits of `x` rounded to nearest, ties to even, from the float64
    /// itself (going through float32 would round twice). Too large values
    /// become infinity (NaN in a finite-only format); a NaN stays a quiet
    /// NaN with its sign and its top payload bits (the canonical NaN for a
    /// float64 NaN without payload), as a hardware conversion does.
    pub fn round(self, x: f64) -> u64 {
        let mb = self.man_bits;
        let b = x.to_bits();
        let sign = if b >> 63 == 1 { self.sign_bit() } else { 0 };
        let exp = ((b >> 52) & 0x7ff) as i32;
        let man = b & ((1u64 << 52) - 1);
        if exp == 0x7ff {
            return if man == 0 {
                sign | self.inf()
            } else if self.finite_only {
                sign | self.nan()
            } else {
                sign | self.nan() | (man >> (52 - mb))
            };
        }
        if exp == 0 {
            return sign; // float64 subnormals are far below every small format's range
        }
        let m = (1u64 << 52) | man;
        let e = exp - 1023;
        let bias = self.bias();
        // The largest exponent of a finite number: a finite-only format's
        // all-ones exponent holds numbers too.
        let (emin, emax) = (1 - bias, if self.finite_only { bias + 1 } else { bias });
        let round = |shift: u32| -> u64 {
            if shift > 54 {
                return 0; // below half the smallest subnormal
            }
            let (q, r, half) = (m >> shift, m & ((1u64 << shift) - 1), 1u64 << (shift - 1));
            if r > half || (r == half && q & 1 == 1) {
                q + 1
            } else {
                q
            }
        };
        if e > emax {
            return sign | self.inf();
        }
        let normal_shift = 52 - mb;
        let bits = if e >= emin {
            // A carry out of the mantissa bumps the exponent (possibly past the largest finite).
            (((e + bias) as u64) << mb) + round(normal_shift) - (1u64 << mb)
        } else {
            round(normal_shift + (emin - e) as u32) // subnormal (1 << man_bits: the smallest normal)
        };
        let max_finite = if self.finite_only { self.nan() - 1 } else { self.inf() - 1 };
        sign | if bits > max_finite { self.inf() } else { bits }
    }

    /// The value of `bits` in this format.
    pub fn value(self, bits: u64) -> f64 {
        let (eb, mb) = (self.exp_bits, self.man_bits);
        let sign = if bits & self.sign_bit() != 0 { -1.0 } else { 1.0 };
        let (e, m) = ((bits >> mb) & ((1 << eb) - 1), bits & ((1 << mb) - 1));
        let all = (1u64 << eb) - 1;
        if self.finite_only && e == all && m == (1 << mb) - 1 {
            return f64::NAN;
        }
        if !self.finite_only && e == all {
            return if m == 0 { sign * f64::INFINITY } else { f64::NAN };
        }
        let bias = self.bias();
        if e == 0 {
            return sign * m as f64 * pow2(1 - bias - mb as i32);
        }
        sign * ((1 << mb) | m) as f64 * pow2(e as i32 - bias - mb as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_nearest_even_once() {
        assert_eq!(FLOAT16.round(1.0), 0x3C00);
        assert_eq!(FLOAT16.round(-2.0), 0xC000);
        assert_eq!(FLOAT16.round(65504.0), 0x7BFF);
        assert_eq!(FLOAT16.round(65519.99), 0x7BFF);
        assert_eq!(FLOAT16.round(65520.0), 0x7C00); // the tie above the largest rounds to inf
        assert_eq!(FLOAT16.round(1e10), 0x7C00);
        assert_eq!(FLOAT16.round(5.960464477539063e-8), 0x0001);
        assert_eq!(FLOAT16.round(2.98023223876953125e-8), 0x0000); // half the smallest: to even
        assert_eq!(FLOAT16.round(-0.0), 0x8000);
        assert_eq!(FLOAT16.round(f64::NAN), 0x7E00);
        assert_eq!(FLOAT16.round(-f64::NAN), 0xFE00);
        assert_eq!(FLOAT16.round(f64::NEG_INFINITY), 0xFC00);
        assert_eq!(BFLOAT16.round(1.00390625), 0x3F80);
        assert_eq!(FLOAT8E4M3.round(448.0), 0x7E);
        assert_eq!(FLOAT8E4M3.round(464.0), 0x7E); // tie to the even 448
        assert_eq!(FLOAT8E4M3.round(465.0), 0x7F);
        assert_eq!(FLOAT8E4M3.round(f64::INFINITY), 0x7F);
        assert_eq!(FLOAT8E4M3.round(-1.5), 0xBC);
        assert_eq!(FLOAT8E5M2.round(57344.0), 0x7B);
        assert_eq!(FLOAT8E5M2.round(f64::INFINITY), 0x7C);
        for f in SMALL_FLOATS {
            for bits in 0..1u64 << (f.exp_bits + f.man_bits + 1) {
                let v = f.value(bits);
                if !v.is_nan() {
                    assert_eq!(f.round(v), bits, "{} {bits:#x}", f.name);
                }
            }
        }
        assert!(FLOAT8E4M3.value(0x7F).is_nan() && FLOAT8E4M3.value(0x7E) == 448.0);
    }
}
