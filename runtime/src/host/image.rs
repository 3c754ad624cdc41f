//! Host images: a module's object code with what the runtime reads of it
//! for each of its kernels (parameter sizes, frames, shared memory,
//! locations, external declarations). A disk cache keeps the image, so that
//! a new process loads a cached kernel (or every kernel of a multi-kernel
//! `pydev.Program`) with no MLIR context, no parse and no LLVM compile
//! (docs/performance.md, "first launch from the disk cache").
//!
//! Layout (little-endian): the magic, the number of kernels, then for each
//! its name and each field of its [`HostMeta`] in declaration order (a
//! count or number is a `u64`, a string its byte length then its UTF-8
//! bytes), then the object code to the end. A truncated or foreign buffer
//! is an error, never a panic.

use crate::capi;
use melior::ir::{
    attribute::{ArrayAttribute, IntegerAttribute, StringAttribute},
    block::BlockLike,
    operation::OperationLike,
    Module, RegionLike,
};
use pydev_dialect::abi::attr;

const MAGIC: &[u8] = b"pydev-host-image-5\0";

/// Errors of reading a host image's metadata from a host module
/// ([`HostMeta::of`]) or from a cached image ([`decode`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    #[error("no kernel '{kernel}' in the host module (was it compiled by the host pipeline?)")]
    NoKernel { kernel: String },
    #[error("not a host image (wrong magic)")]
    WrongMagic,
    #[error("the host image is truncated or corrupt")]
    Corrupt,
}

/// What [`super::HostProgram`] needs of a host module besides its code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostMeta {
    pub param_sizes: Vec<usize>,
    /// Bytes of the per-thread frame of a kernel split at its barriers (0: none).
    pub frame: usize,
    /// (size, kind) of each private buffer.
    pub private: Vec<(usize, i64)>,
    pub fibers: bool,
    /// Threads that returned do not hold up block barriers (the kernel has
    /// `pydev.exited_skip_barriers`).
    pub exited_skip: bool,
    /// The kernel synchronizes its grid (`pydev.host_cooperative`): every
    /// block of its grid runs at once, as coroutines.
    pub cooperative: bool,
    /// The most threads a block may have, from the kernel's launch bounds
    /// (`pydev.host_max_threads`); None: no bounds.
    pub max_threads: Option<u64>,
    pub prints: bool,
    pub static_shared: usize,
    /// `file:line:col` of the failure sites, by index.
    pub locations: Vec<String>,
    /// Functions the module declares without defining (resolved in `link=` libraries).
    pub externals: Vec<String>,
}

impl HostMeta {
    /// Reads kernel `kernel`'s metadata from host module `module` (the `llvm` stage).
    pub fn of(module: &Module, kernel: &str) -> Result<Self, ImageError> {
        let Some(param_sizes) = capi::dict_i64_array(module, attr::HOST_KERNELS, kernel) else {
            return Err(ImageError::NoKernel { kernel: kernel.to_owned() });
        };
        let op = module.as_operation();
        let frame = capi::dict_i64(module, attr::HOST_FRAMES, kernel).unwrap_or(0) as usize;
        let private = capi::dict_i64_array(module, attr::HOST_PRIVATE, kernel)
            .unwrap_or_default()
            .chunks(2)
            .map(|c| (c[0] as usize, c[1]))
            .collect();
        let fibers = frame == 0 && op.attribute(attr::HOST_FIBERS).is_ok();
        let exited_skip = capi::dict_i64(module, attr::HOST_EXITED_SKIP, kernel).is_some_and(|v| v != 0);
        let cooperative = capi::dict_i64(module, attr::HOST_COOPERATIVE, kernel).is_some_and(|v| v != 0);
        let max_threads = capi::dict_i64(module, attr::HOST_MAX_THREADS, kernel).map(|v| v.max(0) as u64);
        let prints = op.attribute(attr::HOST_PRINTS).is_ok();
        let static_shared = op
            .attribute(attr::HOST_SHARED_BYTES)
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map_or(0, |i| i.value() as usize);
        let locations = op
            .attribute(attr::HOST_LOCATIONS)
            .ok()
            .and_then(|a| ArrayAttribute::try_from(a).ok())
            .map(|a| {
                (0..a.len())
                    .filter_map(|i| {
                        a.element(i).ok().and_then(|e| StringAttribute::try_from(e).ok()).map(|s| s.value().to_owned())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut externals = Vec::new();
        let body = module.body();
        let mut next = body.first_operation();
        while let Some(o) = next {
            let declaration = o.name().as_string_ref().as_str() == Ok("llvm.func")
                && o.region(0).map(|r| r.first_block().is_none()).unwrap_or(false);
            if declaration {
                if let Some(name) = o.attribute("sym_name").ok().and_then(|a| StringAttribute::try_from(a).ok()) {
                    externals.push(name.value().to_owned());
                }
            }
            next = o.next_in_block();
        }
        Ok(Self {
            param_sizes: param_sizes.into_iter().map(|s| s as usize).collect(),
            frame,
            private,
            fibers,
            exited_skip,
            cooperative,
            max_threads,
            prints,
            static_shared,
            locations,
            externals,
        })
    }
}

/// The image of the kernels `kernels` (name and metadata) of one object, `object`.
pub fn encode(kernels: &[(String, HostMeta)], object: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(MAGIC.len() + 256 * kernels.len() + object.len());
    out.extend_from_slice(MAGIC);
    let num = |out: &mut Vec<u8>, n: u64| out.extend_from_slice(&n.to_le_bytes());
    let text = |out: &mut Vec<u8>, s: &str| {
        num(out, s.len() as u64);
        out.extend_from_slice(s.as_bytes());
    };
    num(&mut out, kernels.len() as u64);
    for (name, meta) in kernels {
        text(&mut out, name);
        num(&mut out, meta.param_sizes.len() as u64);
        meta.param_sizes.iter().for_each(|&s| num(&mut out, s as u64));
        num(&mut out, meta.frame as u64);
        num(&mut out, meta.private.len() as u64);
        for &(size, kind) in &meta.private {
            num(&mut out, size as u64);
            num(&mut out, kind as u64);
        }
        num(&mut out, meta.fibers as u64);
        num(&mut out, meta.exited_skip as u64);
        num(&mut out, meta.cooperative as u64);
        // 0: no bounds (a block of 0 threads is never launched).
        num(&mut out, meta.max_threads.unwrap_or(0));
        num(&mut out, meta.prints as u64);
        num(&mut out, meta.static_shared as u64);
        num(&mut out, meta.locations.len() as u64);
        meta.locations.iter().for_each(|s| text(&mut out, s));
        num(&mut out, meta.externals.len() as u64);
        meta.externals.iter().for_each(|s| text(&mut out, s));
    }
    out.extend_from_slice(object);
    out
}

/// Whether `bytes` is an image (rather than bare object code).
pub fn is_image(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The kernels (name and metadata) and the object code of an image.
#[allow(clippy::type_complexity)]
pub fn decode(bytes: &[u8]) -> Result<(Vec<(String, HostMeta)>, &[u8]), ImageError> {
    let mut rest = bytes.strip_prefix(MAGIC).ok_or(ImageError::WrongMagic)?;
    // Counts are bounded by what is left, so a corrupt count cannot make a huge allocation.
    let count = |n: u64| if n as usize <= bytes.len() / 8 { Ok(n as usize) } else { Err(ImageError::Corrupt) };
    fn take<'a>(rest: &mut &'a [u8], k: usize) -> Result<&'a [u8], ImageError> {
        if rest.len() < k {
            return Err(ImageError::Corrupt);
        }
        let (head, tail) = rest.split_at(k);
        *rest = tail;
        Ok(head)
    }
    fn num(rest: &mut &[u8]) -> Result<u64, ImageError> {
        Ok(u64::from_le_bytes(take(rest, 8)?.try_into().map_err(|_| ImageError::Corrupt)?))
    }
    fn text(rest: &mut &[u8]) -> Result<String, ImageError> {
        let len = num(rest)? as usize;
        String::from_utf8(take(rest, len)?.to_vec()).map_err(|_| ImageError::Corrupt)
    }
    let strings = |rest: &mut &[u8]| -> Result<Vec<String>, ImageError> {
        let n = count(num(rest)?)?;
        (0..n).map(|_| text(rest)).collect()
    };
    let kernels = count(num(&mut rest)?)?;
    let mut out = Vec::with_capacity(kernels);
    for _ in 0..kernels {
        let name = text(&mut rest)?;
        let n = count(num(&mut rest)?)?;
        let param_sizes = (0..n).map(|_| num(&mut rest).map(|s| s as usize)).collect::<Result<_, _>>()?;
        let frame = num(&mut rest)? as usize;
        let n = count(num(&mut rest)?)?;
        let private = (0..n)
            .map(|_| Ok((num(&mut rest)? as usize, num(&mut rest)? as i64)))
            .collect::<Result<_, ImageError>>()?;
        let fibers = num(&mut rest)? != 0;
        let exited_skip = num(&mut rest)? != 0;
        let cooperative = num(&mut rest)? != 0;
        let max_threads = Some(num(&mut rest)?).filter(|&n| n != 0);
        let prints = num(&mut rest)? != 0;
        let static_shared = num(&mut rest)? as usize;
        let locations = strings(&mut rest)?;
        let externals = strings(&mut rest)?;
        let meta = HostMeta {
            param_sizes,
            frame,
            private,
            fibers,
            exited_skip,
            cooperative,
            max_threads,
            prints,
            static_shared,
            locations,
            externals,
        };
        out.push((name, meta));
    }
    Ok((out, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> HostMeta {
        HostMeta {
            param_sizes: vec![24, 4, 8],
            frame: 16,
            private: vec![(64, 1), (8, -2)],
            fibers: true,
            exited_skip: true,
            cooperative: true,
            max_threads: Some(128),
            prints: false,
            static_shared: 1024,
            locations: vec!["k.py:3:5".into(), "dir with\nnewline/ü.py:9:1".into()],
            externals: vec!["axpy".into()],
        }
    }

    #[test]
    fn an_image_round_trips() {
        let object = b"\x7fELF object bytes".to_vec();
        let other = HostMeta { param_sizes: vec![8], fibers: false, max_threads: None, locations: vec![], ..meta() };
        let kernels = vec![("k".to_owned(), meta()), ("k2".to_owned(), other)];
        let image = encode(&kernels, &object);
        assert!(is_image(&image));
        let (m, o) = decode(&image).unwrap();
        assert_eq!(m, kernels);
        assert_eq!(o, object.as_slice());
    }

    #[test]
    fn truncated_or_foreign_bytes_are_errors() {
        let image = encode(&[("k".to_owned(), meta())], b"obj");
        let header = image.len() - 3;
        for cut in [MAGIC.len(), MAGIC.len() + 5, header - 1] {
            assert!(decode(&image[..cut]).is_err(), "cut at {cut}");
        }
        assert!(!is_image(b"\x7fELF"));
        assert_eq!(decode(b"\x7fELF").unwrap_err(), ImageError::WrongMagic);
        assert_eq!(decode(b"\x7fELF").unwrap_err().to_string(), "not a host image (wrong magic)");
        // A count far larger than the buffer is refused, not allocated.
        let mut huge = MAGIC.to_vec();
        huge.extend_from_slice(&u64::MAX.to_le_bytes());
        assert!(decode(&huge).is_err());
    }
}
