fn main() -> std::process::ExitCode {
    interlint::cli::main()
}
