//! Every compile error the macros report as a compile-fail test with
//! its expected rustc output, and every accepted form as a compile-pass test.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
    cases.pass("pass/*.rs");
}
