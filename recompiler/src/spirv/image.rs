//! Native images ([`crate::native`]): an [`Expr::Image`] becomes the texture unit's own
//! instruction on a combined image sampler at descriptor set 1, binding `image`, or on a
//! storage image there (a store's `OpImageWrite`, format Unknown: the device's
//! `shaderStorageImageWriteWithoutFormat`).
//!
//! Every access is explicit-LOD (`Lod` or `Grad`), so a compute module needs no derivative
//! execution mode and a lane's result does not depend on its neighbours' control flow. The
//! four components of one access are four expressions in a row with the same operands: the
//! first emits the instruction, the others extract from its result.
//!
//! [`Expr::Image`]: crate::ir::Expr::Image

use rspirv::dr::Operand;
use rspirv::spirv::{Capability, Decoration, Dim, ImageFormat, ImageOperands, StorageClass, Word};

use super::{build_err, Emitter, SpirvError};
use crate::ir::{Handle, ImageAccess, ImageOp};
use crate::native::{NativeDim, SampledType};

/// The SPIR-V objects of one image binding.
#[derive(Clone, Copy, Debug)]
pub(super) struct ImageVar {
    var: Word,
    image_ty: Word,
    sampled_ty: Word,
    /// `vec4` of the sampled type.
    vec4: Word,
    /// The sampled type's scalar.
    scalar: Word,
}

/// The last access emitted: a component of the same access right after it reuses `vec4`.
#[derive(Clone, Debug)]
pub(super) struct LastAccess {
    at: Handle,
    access: ImageAccess,
    vec4: Word,
}

impl Emitter<'_> {
    /// Declares every image binding of the kernel (module scope, before the entry point).
    pub(super) fn declare_images(&mut self) -> Result<(), SpirvError> {
        for i in 0..self.kernel.images.len() {
            self.image_var(i as u8)?;
        }
        Ok(())
    }

    /// The variable and types of image `i`, declared by [`Self::declare_images`].
    fn image_var(&mut self, i: u8) -> Result<ImageVar, SpirvError> {
        if let Some(Some(v)) = self.image_vars.get(usize::from(i)) {
            return Ok(*v);
        }
        let img = self
            .kernel
            .images
            .get(usize::from(i))
            .ok_or_else(|| SpirvError::Interface {
                reason: format!("image {i} is not among the kernel's images"),
            })?;
        let scalar = match img.sampled {
            SampledType::Float => self.t.f32_,
            SampledType::Uint => self.t.u32_,
            SampledType::Sint => self.b.type_int(32, 1),
        };
        let dim = match img.dim {
            NativeDim::D1 => {
                self.b.capability(Capability::Sampled1D);
                Dim::Dim1D
            }
            NativeDim::D2 => Dim::Dim2D,
            NativeDim::D3 => Dim::Dim3D,
            NativeDim::Cube => Dim::DimCube,
        };
        let image_ty = self.b.type_image(
            scalar,
            dim,
            u32::from(img.depth),
            u32::from(img.arrayed),
            0,
            if img.storage { 2 } else { 1 },
            ImageFormat::Unknown,
            None,
        );
        // a storage image is bound as it is; a sampled one with its sampler
        let sampled_ty = if img.storage {
            self.b
                .capability(Capability::StorageImageWriteWithoutFormat);
            if img.dim == NativeDim::D1 {
                self.b.capability(Capability::Image1D);
            }
            image_ty
        } else {
            self.b.type_sampled_image(image_ty)
        };
        let ptr = self
            .b
            .type_pointer(None, StorageClass::UniformConstant, sampled_ty);
        let var = self
            .b
            .variable(ptr, None, StorageClass::UniformConstant, None);
        self.b
            .decorate(var, Decoration::DescriptorSet, [Operand::LiteralBit32(1)]);
        self.b.decorate(
            var,
            Decoration::Binding,
            [Operand::LiteralBit32(u32::from(i))],
        );
        self.b.name(var, format!("image{i}"));
        let vec4 = self.b.type_vector(scalar, 4);
        let v = ImageVar {
            var,
            image_ty,
            sampled_ty,
            vec4,
            scalar,
        };
        if self.image_vars.len() <= usize::from(i) {
            self.image_vars.resize(usize::from(i) + 1, None);
        }
        self.image_vars[usize::from(i)] = Some(v);
        Ok(v)
    }

    /// A scalar, or a vector of the values of `hs` (all of type `scalar`).
    fn image_vector(&mut self, scalar: Word, hs: &[Handle]) -> Result<Word, SpirvError> {
        let ids: Vec<Word> = hs.iter().map(|&h| self.v(h)).collect();
        if ids.len() == 1 {
            return Ok(ids[0]);
        }
        let ty = self.b.type_vector(scalar, ids.len() as u32);
        self.b
            .composite_construct(ty, None, ids)
            .map_err(build_err(self.at))
    }

    /// The `U32` bits of the texture unit's answer to `a` (see the module docs); 0 for a write.
    pub(super) fn image_access(&mut self, h: Handle, a: &ImageAccess) -> Result<Word, SpirvError> {
        let err = build_err(Some(h));
        let v = self.image_var(a.image)?;
        if let ImageOp::Write { data, active } = &a.op {
            let image = self
                .b
                .load(v.image_ty, None, v.var, None, [])
                .map_err(&err)?;
            let coord = self.image_vector(self.t.u32_, &a.coords)?;
            let mut comps = Vec::with_capacity(4);
            for &d in data {
                let bits = self.v(d);
                comps.push(if v.scalar == self.t.u32_ {
                    bits
                } else {
                    self.b.bitcast(v.scalar, None, bits).map_err(&err)?
                });
            }
            let texel = self
                .b
                .composite_construct(v.vec4, None, comps)
                .map_err(&err)?;
            let active = self.v(*active);
            let merge = self.if_then(active)?;
            self.b
                .image_write(image, coord, texel, None, [])
                .map_err(&err)?;
            self.end_if(merge)?;
            self.last_image = None;
            return Ok(self.u32c(0));
        }
        let key = ImageAccess {
            component: 0,
            ..a.clone()
        };
        let reuse = self
            .last_image
            .as_ref()
            .filter(|l| l.at.0 + 1 == h.0 && l.access == key)
            .map(|l| l.vec4);
        let result = match reuse {
            Some(vec4) => vec4,
            None => {
                let sampled = self
                    .b
                    .load(v.sampled_ty, None, v.var, None, [])
                    .map_err(&err)?;
                let fetch = matches!(a.op, ImageOp::Fetch(_));
                let coord_scalar = if fetch { self.t.u32_ } else { self.t.f32_ };
                let coord = self.image_vector(coord_scalar, &a.coords)?;
                match &a.op {
                    ImageOp::SampleLod(lod) => {
                        let lod = self.v(*lod);
                        self.b
                            .image_sample_explicit_lod(
                                v.vec4,
                                None,
                                sampled,
                                coord,
                                ImageOperands::LOD,
                                [Operand::IdRef(lod)],
                            )
                            .map_err(&err)?
                    }
                    ImageOp::SampleGrad { dx, dy, min_lod } => {
                        let dx = self.image_vector(self.t.f32_, dx)?;
                        let dy = self.image_vector(self.t.f32_, dy)?;
                        let mut ops = ImageOperands::GRAD;
                        let mut args = vec![Operand::IdRef(dx), Operand::IdRef(dy)];
                        if let Some(m) = min_lod {
                            self.b.capability(Capability::MinLod);
                            ops |= ImageOperands::MIN_LOD;
                            args.push(Operand::IdRef(self.v(*m)));
                        }
                        self.b
                            .image_sample_explicit_lod(v.vec4, None, sampled, coord, ops, args)
                            .map_err(&err)?
                    }
                    ImageOp::SampleDref { reference, lod } => {
                        let (r, lod) = (self.v(*reference), self.v(*lod));
                        self.b
                            .image_sample_dref_explicit_lod(
                                v.scalar,
                                None,
                                sampled,
                                coord,
                                r,
                                ImageOperands::LOD,
                                [Operand::IdRef(lod)],
                            )
                            .map_err(&err)?
                    }
                    ImageOp::GatherOffset(c, o) => {
                        self.b.capability(Capability::ImageGatherExtended);
                        let c = self.u32c(u32::from(*c));
                        let i32_ = self.b.type_int(32, 1);
                        let ivec2 = self.b.type_vector(i32_, 2);
                        let mut xy = Vec::with_capacity(2);
                        for &h in o {
                            let bits = self.v(h);
                            xy.push(self.b.bitcast(i32_, None, bits).map_err(&err)?);
                        }
                        let off = self.b.composite_construct(ivec2, None, xy).map_err(&err)?;
                        self.b
                            .image_gather(
                                v.vec4,
                                None,
                                sampled,
                                coord,
                                c,
                                Some(ImageOperands::OFFSET),
                                [Operand::IdRef(off)],
                            )
                            .map_err(&err)?
                    }
                    ImageOp::Gather(c) => {
                        let c = self.u32c(u32::from(*c));
                        self.b
                            .image_gather(v.vec4, None, sampled, coord, c, None, [])
                            .map_err(&err)?
                    }
                    ImageOp::Write { .. } => {
                        return Err(SpirvError::Interface {
                            reason: "an image write has no texel to read".into(),
                        })
                    }
                    ImageOp::Fetch(level) => {
                        let level = self.v(*level);
                        let image = self.b.image(v.image_ty, None, sampled).map_err(&err)?;
                        self.b
                            .image_fetch(
                                v.vec4,
                                None,
                                image,
                                coord,
                                Some(ImageOperands::LOD),
                                [Operand::IdRef(level)],
                            )
                            .map_err(&err)?
                    }
                }
            }
        };
        self.last_image = Some(LastAccess {
            at: h,
            access: key,
            vec4: result,
        });
        let value = if matches!(a.op, ImageOp::SampleDref { .. }) {
            result
        } else {
            self.b
                .composite_extract(v.scalar, None, result, [u32::from(a.component)])
                .map_err(&err)?
        };
        if v.scalar == self.t.u32_ {
            return Ok(value);
        }
        self.b.bitcast(self.t.u32_, None, value).map_err(&err)
    }
}
