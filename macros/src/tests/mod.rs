//! Test-only code of the macro crate, apart from the stages: the fuzzer of the whole
//! pipeline and the in-process stage timings.

mod fuzz;
mod timing;
