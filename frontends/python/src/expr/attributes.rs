//! Reading attributes: of modules, of Dim3 entities (`thread_idx.x`), and of
//! vectors (lanes), structs (fields, methods), arrays, numbers and dtypes.

use super::{operands, operators::UnaryWriter};
use crate::{
    ir::{v, Const, Val},
    lower::{describe, Item, Lowerer, R},
    types::{FloatKind, Ty, INT32, INT64},
};
use pydev_dialect::ops::generic;
use ruff_text_size::TextRange;

impl Lowerer<'_, '_, '_> {
    pub(super) fn attribute(&mut self, base: Item, attr: &str, range: TextRange) -> R<Item> {
        match base {
            Item::DeviceModule => self.device_attr(attr, range),
            Item::CudaPackage if attr == "device" => Ok(Item::DeviceModule),
            Item::MathModule => Ok(Item::Math(attr.to_owned())),
            Item::NumpyModule => self.numpy_attr(attr, range),
            Item::Device(name) if matches!(name.as_str(), "thread_idx" | "block_idx" | "block_dim" | "grid_dim") => {
                // A Dim3 is a uint32x3 (spec: Thread Positioning): also its size and dtype.
                if matches!(attr, "size" | "dtype") {
                    let x = self.dim3_value(&name, range)?;
                    return self.value_attr(x, attr, range);
                }
                self.dim3_component(&name, attr, range)
            }
            Item::Val(x) => self.value_attr(x, attr, range),
            Item::Dtype(t) if attr == "dtype" => Ok(Item::Dtype(t)),
            // NumPy's dtype attributes: its size in bytes and its name.
            Item::Dtype(t) if attr == "itemsize" => {
                Ok(Item::Val(self.constant(Const::Int(i128::from(t.size())), range)?))
            }
            Item::Dtype(t) if attr == "name" => Ok(Item::Str(t.to_string())),
            other => self.err(range, format!("{} has no attribute '{attr}' in device code", describe(&other))),
        }
    }

    fn value_attr(&mut self, x: Val, attr: &str, range: TextRange) -> R<Item> {
        match (&x.ty, attr) {
            (Ty::Vector { lanes, .. }, "x" | "y" | "z" | "w") => {
                let lane = "xyzw".find(attr).expect("lane letter") as u32;
                if lane >= *lanes {
                    let all =
                        "xyzw"[..*lanes as usize].chars().map(|c| format!("'{c}'")).collect::<Vec<_>>().join(", ");
                    return self.err_help(
                        range,
                        format!("a {} has no lane '{attr}'", x.ty),
                        format!("its lanes are {all}"),
                    );
                }
                Ok(Item::Val(self.vector_lane(&x, lane, range)?))
            }
            (Ty::Vector { lanes, .. }, "size") => Ok(Item::Val(self.constant(Const::Int(i128::from(*lanes)), range)?)),
            (Ty::Vector { elem, .. }, "dtype") => Ok(Item::Dtype((**elem).clone())),
            (Ty::Struct(def), field) if def.fields.iter().any(|(n, _)| n == field) => {
                let ty = def.fields.iter().find(|(n, _)| n == field).expect("field").1.clone();
                let value = self.b.op1(&generic::struct_extract(&x, field, &ty.mlir()), ty);
                Ok(Item::Val(self.unwrap_aligned(value)))
            }
            (Ty::Struct(def), method)
                if self.c.m.structs.get(&def.name).is_some_and(|s| s.methods.contains_key(method)) =>
            {
                Ok(Item::Method(Box::new(Item::Val(x)), method.to_owned()))
            }
            (Ty::StructRef { def, .. }, field) if def.fields.iter().any(|(n, _)| n == field) => {
                self.struct_ref_field(x, field, range)
            }
            (Ty::StructRef { def, .. }, method)
                if self.c.m.structs.get(&def.name).is_some_and(|s| s.methods.contains_key(method)) =>
            {
                Ok(Item::Method(Box::new(Item::Val(x)), method.to_owned()))
            }
            (Ty::Array { .. }, _) => self.array_attr(x, attr, range),
            (Ty::AtomicRef { dtype, .. }, "dtype") => Ok(Item::Dtype((**dtype).clone())),
            (Ty::AtomicRef { .. }, m) if crate::builtins::ATOMIC_METHODS.contains(&m) => {
                Ok(Item::Method(Box::new(Item::Val(x)), m.to_owned()))
            }
            (t, "dtype") if t.is_number() => Ok(Item::Dtype(t.clone())),
            // Fixed-format numbers behave as zero-dimensional arrays (spec).
            (t, "shape" | "strides") if t.is_number() => Ok(Item::Tuple(vec![])),
            (t, "ndim" | "ndims") if t.is_number() => Ok(Item::Val(self.constant(Const::Int(0), range)?)),
            (t, "size") if t.is_number() => Ok(Item::Val(self.constant(Const::Int(1), range)?)),
            (t, "astype" | "view" | "reshape") if t.is_number() => {
                Ok(Item::Method(Box::new(Item::Val(x)), attr.to_owned()))
            }
            (Ty::Complex(bits), "real" | "imag") => {
                let part = Ty::Float(if *bits == 64 { FloatKind::F64 } else { FloatKind::F32 });
                let op = if attr == "real" { "re" } else { "im" };
                Ok(Item::Val(self.b.op1(&format!("complex.{op} {} : {}", v(x.id), x.ty.mlir()), part)))
            }
            (t, _) => self.err(range, format!("a {t} has no attribute '{attr}'")),
        }
    }

    fn array_attr(&mut self, a: Val, attr: &str, range: TextRange) -> R<Item> {
        let Ty::Array { dtype, ndim, .. } = &a.ty else { unreachable!("array") };
        let (dtype, ndim) = ((**dtype).clone(), *ndim);
        let tuple_ty = Ty::Tuple(vec![INT64; ndim as usize]);
        match attr {
            "shape" | "strides" => {
                let write: UnaryWriter = if attr == "shape" { generic::array_shape } else { generic::array_strides };
                let t = self.b.op1(&write(&a, &tuple_ty.mlir()), tuple_ty);
                Ok(Item::Val(t))
            }
            "size" => Ok(Item::Val(self.b.op1(&generic::array_size(&a, &INT64.mlir()), INT64))),
            "ndim" | "ndims" => Ok(Item::Val(self.constant(Const::Int(i128::from(ndim)), range)?)),
            "dtype" => Ok(Item::Dtype(dtype)),
            "view" | "reshape" | "astype" => Ok(Item::Method(Box::new(Item::Val(a)), attr.to_owned())),
            _ => self.err_help(
                range,
                format!("arrays have no attribute '{attr}' in device code"),
                "device code can read .shape, .strides, .size, .ndim and .dtype, and call view, reshape and astype",
            ),
        }
    }

    /// `r.f` of a struct in memory: an `AtomicInterface` for a
    /// `device.Atomic` field, else the field's value.
    fn struct_ref_field(&mut self, r: Val, field: &str, range: TextRange) -> R<Item> {
        let Ty::StructRef { def, space } = r.ty.clone() else { unreachable!("struct ref") };
        let ty = def.fields.iter().find(|(n, _)| n == field).expect("field").1.clone();
        let zero = self.typed_const(&Const::Int(0), &INT64);
        self.at(range);
        if let Some(inner) = ty.atomic_cell_value() {
            let atomic = Ty::AtomicRef { dtype: Box::new(inner.clone()), space };
            return Ok(Item::Val(
                self.b.op1(&generic::atomic_ref(&r, &[&zero], Some(&[field, "value"]), &atomic.mlir()), atomic),
            ));
        }
        let whole = Ty::Struct(def);
        let x = self.b.op1(&generic::array_load(&r, &[&zero], &whole.mlir()), whole.clone());
        let value = self.b.op1(&generic::struct_extract(&x, field, &ty.mlir()), ty);
        Ok(Item::Val(self.unwrap_aligned(value)))
    }

    pub(crate) fn vector_lane(&mut self, vec: &Val, lane: u32, range: TextRange) -> R<Val> {
        let Ty::Vector { elem, lanes } = &vec.ty else { return self.err(range, "not a vector") };
        if lane >= *lanes {
            return self.err(range, format!("{} has {lanes} lanes; lane {lane} does not exist", vec.ty));
        }
        let elem = (**elem).clone();
        let idx = self.typed_const(&Const::Int(i128::from(lane)), &INT32);
        Ok(self.b.op1(&generic::vector_extract(vec, &idx, &elem.mlir()), elem))
    }

    /// The value of a `Dim3` entity (`thread_idx` ...) as a uint32x3 vector.
    pub(crate) fn dim3_value(&mut self, name: &str, range: TextRange) -> R<Val> {
        let lanes = ["x", "y", "z"]
            .iter()
            .map(|c| self.dim3_component(name, c, range).and_then(|i| self.materialize(&i, range)))
            .collect::<R<Vec<_>>>()?;
        let ty = Ty::Vector { elem: Box::new(crate::types::UINT32), lanes: 3 };
        Ok(self.b.op1(&generic::vector_create(&operands(&lanes), &ty.mlir()), ty))
    }
}
