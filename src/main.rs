//! The `sudolog` binary: all of it lives in the library's `cli` module.

fn main() {
    std::process::exit(sudolog::cli::main());
}
