//! The documentation sudolog prints about itself: manual pages
//! (`sudolog man`, clap_mangen) and shell completion scripts (`sudolog
//! completions`, clap_complete), both generated from the argument
//! definitions.

use super::{Cli, EXIT_INVALID, EXIT_OK};
use clap::CommandFactory;
use std::io::{self, Write};

/// `sudolog man [COMMAND]`: the manual page of sudolog or of one of its
/// commands, as roff on stdout.
pub fn man_page(command: Option<&str>) -> io::Result<i32> {
    let cli = Cli::command();
    let page = match command {
        None => cli,
        Some(name) => match cli.find_subcommand(name) {
            Some(sub) => sub
                .clone()
                .display_name(format!("sudolog-{name}"))
                .bin_name(format!("sudolog {name}"))
                .version(env!("CARGO_PKG_VERSION")),
            None => {
                let names: Vec<&str> = cli
                    .get_subcommands()
                    .map(|c| c.get_name())
                    .filter(|&n| n != "man")
                    .collect();
                errorln!(
                    "`{name}` is not a sudolog command; man pages exist for: {}",
                    names.join(", ")
                );
                return Ok(EXIT_INVALID);
            }
        },
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page).render(&mut roff)?;
    io::stdout().lock().write_all(&roff)?;
    Ok(EXIT_OK)
}

/// `sudolog completions SHELL`: the shell's completion script, on stdout.
pub fn completions(shell: clap_complete::Shell) -> io::Result<i32> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "sudolog", &mut script);
    io::stdout().write_all(&script)?;
    Ok(EXIT_OK)
}
