//! The command line (SPEC section 1).

mod check;
mod commands;
mod show;
mod watch;

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::output::Format;
use crate::registry;
use crate::walk;

use check::check;
use commands::{explain, print_completions, print_rules, print_schema, print_triggers, print_version};

/// Finds code, requests and documents written against the generateContent endpoint and
/// rewrites them for the interactions endpoint.
#[derive(Debug, Parser)]
#[command(name = "interlint", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    check: CheckArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check files (the default command).
    Check(Box<CheckArgs>),
    /// Print the table of every rule: code, name, surfaces, fix.
    Rules {
        /// `text` (a table) or `json` (every rule with its documentation).
        #[arg(long, value_enum, default_value_t = RulesFormat::Text)]
        format: RulesFormat,
        /// Print the words the default rule set's prefilter searches (triggers and anchors), one per line (for benchmarks).
        #[arg(long, hide = true)]
        triggers: bool,
    },
    /// Print a rule's documentation (or the rules of a prefix such as MIG).
    #[command(alias = "rule")]
    Explain {
        /// A rule code, such as MIG009.
        #[arg(value_parser = registry::SelectorParser, hide_possible_values = true)]
        code: String,
    },
    /// Print interlint's version (as `--version` does).
    Version,
    /// Print a JSON Schema interlint checks documents against.
    Schema {
        /// The schema's name.
        #[arg(value_enum)]
        name: crate::manifest::SchemaName,
    },
    /// Print a shell completion script.
    Completions { shell: clap_complete::Shell },
    /// Verify a migration against the live service, as the migration guide's last step does:
    /// one create-interaction call must return steps with a model_output text, and a second call
    /// with previous_interaction_id must keep the context (a code word planted in turn one is
    /// asked for in turn two). Exit 0 when every check passes, 1 when one fails, 2 when the
    /// checks cannot be made. The only command that uses the network.
    Verify {
        #[arg(long, value_name = "URL", help = crate::verify::help_base_url())]
        base_url: Option<String>,
        #[arg(long, value_name = "VAR", help = crate::verify::help_api_key_env())]
        api_key_env: Option<String>,
        #[arg(long, value_name = "ID", help = crate::verify::help_model())]
        model: Option<String>,
        #[arg(long, value_enum, default_value_t = RulesFormat::Text)]
        format: RulesFormat,
        /// Seconds to wait for each reply
        #[arg(long, value_name = "SECONDS", default_value_t = 60)]
        timeout: u64,
    },
    /// Serve interlint to editors as a language server over stdio: findings while you type,
    /// quick fixes, fix all, suppression comments and rule documentation on hover.
    #[command(visible_alias = "lsp")]
    Server,
    /// Serve interlint to coding agents as a Model Context Protocol tool server over stdio:
    /// tools interlint_check, interlint_fix, interlint_explain and interlint_rules.
    Mcp {
        /// The folder the tools may read and fix; a path outside it is refused [default: the
        /// current folder].
        #[arg(long, value_name = "DIR")]
        root: Option<PathBuf>,
    },
}

#[derive(Debug, Default, clap::Args)]
pub(super) struct CheckArgs {
    /// Files or folders to check, or `-` for standard input [default: .]
    pub(super) paths: Vec<PathBuf>,
    /// Apply safe fixes in place.
    #[arg(long)]
    pub(super) fix: bool,
    /// Also apply (with --fix or --diff) or show unsafe fixes.
    #[arg(long)]
    pub(super) unsafe_fixes: bool,
    /// Print a unified diff of the fixes; change no file.
    #[arg(long)]
    pub(super) diff: bool,
    /// Add an `interlint: ignore[CODE]` comment for every finding, where one keeps the file's meaning; fix nothing.
    #[arg(long, conflicts_with_all = ["fix", "diff", "statistics", "show_fixes", "watch", "show_files", "show_settings"])]
    pub(super) add_noqa: bool,
    /// Output format [default: text]
    #[arg(long, visible_alias = "output-format", value_enum)]
    pub(super) format: Option<Format>,
    /// Rule codes or prefixes to enable (comma-separated), replacing the configuration's.
    #[arg(long, value_delimiter = ',', value_name = "CODES", value_parser = registry::SelectorParser, hide_possible_values = true)]
    pub(super) select: Option<Vec<String>>,
    /// Rule codes or prefixes to enable on top of those selected (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "CODES", value_parser = registry::SelectorParser, hide_possible_values = true)]
    pub(super) extend_select: Vec<String>,
    /// Rule codes or prefixes to disable (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "CODES", value_parser = registry::SelectorParser, hide_possible_values = true)]
    pub(super) ignore: Vec<String>,
    /// A configuration file, or a `KEY = VALUE` setting in its TOML (`--config 'select = ["MIG009"]'`)
    /// that overrides the file's; repeatable [default file: interlint.toml, .interlint.toml or
    /// [tool.interlint] in pyproject.toml, searched upwards]
    #[arg(long, value_name = "FILE_OR_SETTING", value_parser = crate::config::parse_config_arg)]
    pub(super) config: Vec<crate::config::ConfigArg>,
    /// Brand word of model ids; repeatable [default: model, gemini]
    #[arg(long = "model-prefix", value_name = "WORD")]
    pub(super) model_prefixes: Vec<String>,
    /// Read one file from standard input, checked as if it had this name.
    #[arg(long, value_name = "NAME")]
    pub(super) stdin_filename: Option<PathBuf>,
    /// Exit with 0 even when findings remain.
    #[arg(long)]
    pub(super) exit_zero: bool,
    /// Exit with 1 when a fix was applied, even if no finding remains (a pre-commit hook that
    /// fixes should fail so the fixes are reviewed).
    #[arg(long, conflicts_with = "exit_zero")]
    pub(super) exit_non_zero_on_fix: bool,
    /// List the fixes applied (with --fix) or that would be (with --diff), per file and rule.
    #[arg(long)]
    pub(super) show_fixes: bool,
    /// Write the findings (or the diff) to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub(super) output_file: Option<PathBuf>,
    /// Colours in the text output: auto (on a terminal, unless NO_COLOR is set; FORCE_COLOR
    /// forces them), always or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub(super) color: ColorChoice,
    /// Print the settings in effect (configuration file, rules, excludes, limits) and exit.
    #[arg(long, conflicts_with_all = ["fix", "diff", "show_files", "watch"])]
    pub(super) show_settings: bool,
    /// Print the files that would be checked, one per line, and exit.
    #[arg(long, conflicts_with_all = ["fix", "diff", "watch"])]
    pub(super) show_files: bool,
    /// Check again whenever a file under the paths changes (until interrupted).
    #[arg(long, short)]
    pub(super) watch: bool,
    /// Print findings and errors only: no summary, no notes, no progress.
    #[arg(long, short)]
    pub(super) quiet: bool,
    /// Also show what is skipped without a word (binary files).
    #[arg(long, short)]
    pub(super) verbose: bool,
    /// Never show a progress indicator.
    #[arg(long)]
    pub(super) no_progress: bool,
    /// Threads to use [default: the number of CPUs]
    #[arg(long, short, value_name = "N")]
    pub(super) jobs: Option<usize>,
    /// Print the number of findings per rule instead of the findings (as a table, or JSON with
    /// --format json).
    #[arg(long, conflicts_with = "diff")]
    pub(super) statistics: bool,
    /// Globs of files and folders to leave out, replacing the configuration's `exclude` and the
    /// default list (comma-separated; repeatable).
    #[arg(long, value_delimiter = ',', value_name = "GLOBS")]
    pub(super) exclude: Option<Vec<String>>,
    /// Walk the folders the default `exclude` list leaves out (`venv`, `node_modules`,
    /// `site-packages`, `dist`, tool caches); a configured `exclude` still applies.
    #[arg(long)]
    pub(super) no_default_excludes: bool,
    /// Globs of files and folders to leave out, besides `exclude` (comma-separated; repeatable).
    #[arg(long, value_delimiter = ',', value_name = "GLOBS")]
    pub(super) extend_exclude: Vec<String>,
    /// Apply safe fixes (as --fix), and report neither the findings left nor exit 1 for them.
    #[arg(long, conflicts_with_all = ["diff", "add_noqa", "statistics", "show_settings", "show_files"])]
    pub(super) fix_only: bool,
    /// Apply `exclude` and `.gitignore` to paths named on the command line too (for pre-commit,
    /// which names every file), and to the name given with --stdin-filename.
    #[arg(long)]
    pub(super) force_exclude: bool,
    /// Skip files larger than this (bytes, or with a K, M or G suffix) [default: 10M]
    #[arg(long, value_name = "SIZE", value_parser = crate::config::parse_size)]
    pub(super) max_file_size: Option<u64>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum RulesFormat {
    Text,
    Json,
}

/// Exit statuses (SPEC section 1).
pub(super) const EXIT_CLEAN: u8 = 0;
pub(super) const EXIT_FINDINGS: u8 = 1;
pub(super) const EXIT_ERROR: u8 = 2;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help, version or a usage error; clap prints it, quietly on a closed pipe.
        Err(e) => {
            if let Err(io) = e.print()
                && io.kind() != io::ErrorKind::BrokenPipe
            {
                eprintln!("error: cannot write the output: {}", walk::describe_io(&io));
                return ExitCode::from(EXIT_ERROR);
            }
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(EXIT_ERROR));
        }
    };
    let result = match cli.command {
        Some(Command::Rules { triggers: true, .. }) => print_triggers(),
        Some(Command::Rules { format, .. }) => print_rules(format),
        Some(Command::Explain { code }) => explain(&code),
        Some(Command::Schema { name }) => print_schema(name),
        Some(Command::Version) => print_version(),
        Some(Command::Completions { shell }) => print_completions(shell),
        Some(Command::Server) => crate::language_server::serve(),
        Some(Command::Mcp { root }) => crate::mcp_server::serve(root.as_deref()),
        Some(Command::Verify {
            base_url,
            api_key_env,
            model,
            format,
            timeout,
        }) => crate::verify::verify_or_report(
            &crate::verify::Options {
                base_url,
                api_key_env,
                model,
                timeout: std::time::Duration::from_secs(timeout.max(1)),
                json: format == RulesFormat::Json,
            },
            &mut io::stdout().lock(),
        ),
        Some(Command::Check(args)) => check(*args),
        None => check(cli.check),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            // The only I/O errors left to here are the output's: a reader that closed the pipe
            // (`| head`) has what it wanted, as with ripgrep; a full disk is an error.
            match e.downcast_ref::<io::Error>() {
                Some(io) if io.kind() == io::ErrorKind::BrokenPipe => return ExitCode::from(EXIT_CLEAN),
                Some(io) => eprintln!("error: cannot write the output: {}", walk::describe_io(io)),
                None => eprintln!("error: {e:#}"),
            }
            ExitCode::from(EXIT_ERROR)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        use crate::config::parse_size;
        assert_eq!(parse_size("10"), Ok(10));
        assert_eq!(parse_size("10K"), Ok(10 * 1024));
        assert_eq!(parse_size("10MiB"), Ok(10 << 20));
        assert!(parse_size("ten").is_err());
        assert!(parse_size("1T").is_err());
    }

    #[test]
    fn cli_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
