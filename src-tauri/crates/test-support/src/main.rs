//! `memo-mock-llm`: the mock LLM server as a process, for CLI and UI end-to-end tests.
//!
//! Prints exactly one line, `listening on http://127.0.0.1:PORT`, once it accepts
//! connections; serves until SIGTERM/SIGINT (or stdin closes with
//! `--exit-on-stdin-eof`). The script comes from `--scenario FILE` and/or
//! `POST /__mock/responses`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use memo_test_support::{MockLlmServer, Scenario};

const USAGE: &str =
    "usage: memo-mock-llm [--scenario FILE] [--port N] [--models A,B] [--exit-on-stdin-eof]";

/// Exit code for unusable arguments or scenario (the caller's mistake).
const EXIT_USAGE: u8 = 2;

#[derive(Debug, Default)]
struct Args {
    scenario: Option<PathBuf>,
    port: u16,
    /// What `GET /v1/models` lists (default: the mock's one model).
    models: Option<Vec<String>>,
    exit_on_stdin_eof: bool,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut parsed = Args::default();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--scenario" => {
                let file = args.next().ok_or("--scenario needs a file")?;
                parsed.scenario = Some(PathBuf::from(file));
            }
            "--port" => {
                let port = args.next().ok_or("--port needs a number")?;
                parsed.port = port
                    .parse()
                    .map_err(|_| format!("--port: not a port number: {port}"))?;
            }
            "--models" => {
                let list = args.next().ok_or("--models needs a comma-separated list")?;
                parsed.models = Some(
                    list.split(',')
                        .map(str::trim)
                        .filter(|m| !m.is_empty())
                        .map(str::to_owned)
                        .collect(),
                );
            }
            "--exit-on-stdin-eof" => parsed.exit_on_stdin_eof = true,
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown argument: {other}")),
        }
    }
    Ok(Some(parsed))
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("memo-mock-llm: {message}; {USAGE}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let scenario = match &args.scenario {
        Some(path) => match Scenario::from_file(path) {
            Ok(scenario) => scenario,
            Err(err) => {
                eprintln!("memo-mock-llm: {err}");
                return ExitCode::from(EXIT_USAGE);
            }
        },
        None => Scenario::default(),
    };

    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("memo-mock-llm: cannot start the async runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(serve(args, scenario))
}

async fn serve(args: Args, scenario: Scenario) -> ExitCode {
    // Handlers go in before the listening line: a supervisor may send SIGTERM as
    // soon as it has read it, and the default action would kill us uncleanly.
    let terminated = match termination_signal() {
        Ok(terminated) => terminated,
        Err(err) => {
            eprintln!("memo-mock-llm: cannot install signal handlers: {err}");
            return ExitCode::FAILURE;
        }
    };
    let server = match MockLlmServer::start_on_port(args.port, scenario.responses).await {
        Ok(server) => server,
        Err(err) => {
            eprintln!("memo-mock-llm: {err}");
            return ExitCode::FAILURE;
        }
    };

    if let Some(models) = &args.models {
        let names: Vec<&str> = models.iter().map(String::as_str).collect();
        server.set_models(&names);
    }

    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "listening on {}", server.base_url())
        .and_then(|()| stdout.flush())
        .is_err()
    {
        // Nobody can learn the port, so serving would be pointless.
        return ExitCode::FAILURE;
    }
    drop(stdout);

    let stdin_closed = async {
        if args.exit_on_stdin_eof {
            stdin_eof().await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        () = terminated => {}
        () = stdin_closed => {}
    }
    server.shutdown().await;
    ExitCode::SUCCESS
}

/// Resolves when stdin reaches EOF (or fails). A detached thread does the blocking
/// read: tokio's stdin cannot be cancelled and would stall runtime shutdown.
async fn stdin_eof() {
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let mut sink = [0u8; 1024];
        let mut stdin = std::io::stdin();
        loop {
            match std::io::Read::read(&mut stdin, &mut sink) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
        let _ = tx.send(());
    });
    let _ = rx.await;
}

/// Registers SIGTERM/SIGINT now; the returned future resolves on either.
#[cfg(unix)]
fn termination_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate())?;
    let mut int = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    })
}

#[cfg(not(unix))]
fn termination_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Result<Option<Args>, String> {
        parse_args(list.iter().map(|s| s.to_string()))
    }

    #[test]
    fn parses_flags() {
        let parsed = args(&[
            "--scenario",
            "s.json",
            "--port",
            "8080",
            "--exit-on-stdin-eof",
        ])
        .unwrap()
        .unwrap();
        assert_eq!(parsed.scenario, Some(PathBuf::from("s.json")));
        assert_eq!(parsed.port, 8080);
        assert!(parsed.exit_on_stdin_eof);
        assert!(args(&["--help"]).unwrap().is_none());
    }

    #[test]
    fn rejects_bad_flags() {
        assert!(args(&["--port", "x"]).is_err());
        assert!(args(&["--port"]).is_err());
        assert!(args(&["--scenario"]).is_err());
        assert!(args(&["--bogus"]).is_err());
    }
}
