//! Fuzzes the schema v1 CSV reader: any bytes must give rows or a located error, never a
//! panic, and whatever parses must survive a write/read round trip unchanged.
//!
//! Needs in fuzz/Cargo.toml: `rdnaprobe-dataset = { path = "../datasets/schema" }` and a
//! `[[bin]]` entry `dataset_csv_reader` with `path = "fuzz_targets/dataset_csv_reader.rs"`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(ds) = rdnaprobe_dataset::parse_dataset(data, "fuzz") {
        let bytes = rdnaprobe_dataset::dataset_to_bytes(&ds).expect("writing to memory");
        let again = rdnaprobe_dataset::parse_dataset(&bytes, "round trip").expect("re-reading");
        assert_eq!(again, ds);
    }
});
