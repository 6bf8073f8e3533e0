use clap::Parser;

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn,wgpu_hal=error,wgpu_core=error,naga=error")).init();
    let args = match smokebox::cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand)
            {
                e.exit();
            }
            // one line, not clap's usage block
            eprintln!("smokebox: {} (see smokebox --help)", smokebox::cli::one_line(&e.to_string()));
            std::process::exit(2);
        }
    };
    if let Err(e) = smokebox::cli::main(args) {
        eprintln!("smokebox: {e}");
        std::process::exit(2);
    }
}
