pub mod hwdata;
