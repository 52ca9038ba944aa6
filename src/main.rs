//! The `quire` binary. Everything it does is in the library ([`quire::cli::start`]).

fn main() -> color_eyre::Result<()> {
    quire::cli::start::main()
}
