//! Generates the test crate's data: random valid descriptions for the property test
//! (`cases`; the seed comes from `MCP_TAILOR_PROP_SEED`, else from the clock, and is written
//! into the generated file so a failure can be replayed) and the benchmark and `eval`
//! catalogs (`catalogs`; fixed seeds).

mod cases;
mod catalogs;
mod rng;

/// `MCP_TAILOR_PROP_SEED`, else the clock (odd, so never zero).
fn seed() -> u64 {
    std::env::var("MCP_TAILOR_PROP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
        })
        | 1
}

fn main() {
    println!("cargo:rerun-if-env-changed=MCP_TAILOR_PROP_SEED");
    println!("cargo:rerun-if-changed=build");
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let write = |name: &str, text: String| std::fs::write(out_dir.join(name), text).unwrap();
    write("generated_cases.rs", cases::cases(seed()));
    write("bench_catalog.rs", catalogs::bench_catalog());
    write("inspect_catalog.rs", catalogs::inspect_catalog());
    // Fixed seeds: the agreement test and the benchmark read the same queries every run.
    write("eval_catalog_120.rs", catalogs::eval_catalog(120, 300, 7));
    write("eval_catalog_600.rs", catalogs::eval_catalog(600, 1000, 11));
}
