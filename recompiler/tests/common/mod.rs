pub mod hwdata;
pub mod spirv_val;
