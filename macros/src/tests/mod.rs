//! Test-only code of the macro crate, apart from the stages: the fuzzer of the whole
//! pipeline, the quick expression reader against `syn`, and the in-process stage timings.

mod exprs;
mod fuzz;
mod timing;
