//! `cargo xtask serve`: the playground on http://127.0.0.1:PORT/ for working on it.
//!
//! It runs `trunk serve` with the same release build and wasm-opt as the published site, so
//! what you see is what ships; Trunk rebuilds and reloads the page when a source file changes.
//! It listens on loopback only: the playground is for this machine's browser.

use crate::dist::trunk;
use crate::install;
use crate::process;
use crate::workspace::INDEX_HTML;
use std::net::{Ipv4Addr, TcpListener};

const DEFAULT_PORT: u16 = 8080;

pub struct Options {
    port: u16,
}

impl Options {
    /// Reads `[--port N]`.
    pub fn parse(args: &[String]) -> Result<Self, String> {
        let mut port = DEFAULT_PORT;
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let value = match arg.strip_prefix("--port") {
                Some("") => args.next().ok_or("--port needs a number")?.as_str(),
                Some(inline) if inline.starts_with('=') => &inline[1..],
                _ => {
                    return Err(format!(
                        "unknown argument {arg:?} for `serve`; usage: serve [--port N]"
                    ))
                }
            };
            port = value
                .parse()
                .map_err(|_| format!("--port wants a port number (1-65535), got {value:?}"))?;
        }
        Ok(Self { port })
    }
}

pub fn run(options: Options) -> Result<(), String> {
    install::site_tools()?;
    // Trunk would only notice a busy port after its first build; say so at once.
    TcpListener::bind((Ipv4Addr::LOCALHOST, options.port)).map_err(|error| {
        format!(
            "port {} on 127.0.0.1 is not free ({error}); pick another with --port",
            options.port
        )
    })?;
    let port = options.port.to_string();
    println!("serve: http://127.0.0.1:{port}/ once the first build finishes (Ctrl-C stops)");
    process::run(trunk().args([
        "serve",
        INDEX_HTML,
        "--release",
        "--offline",
        "--address",
        "127.0.0.1",
        "--port",
        &port,
    ]))
}
