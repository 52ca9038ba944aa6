//! `quire sandbox`: the built-in API server on 127.0.0.1, with its address and the demo tokens
//! printed for whoever started it.

use std::io::Write as _;
use std::net::SocketAddr;
use std::time::Duration;

use color_eyre::eyre::{Result, WrapErr};

use crate::sandbox::{Faults, Sandbox, SandboxOptions, tokens};

/// Serves until ctrl-c.
pub(crate) async fn serve_sandbox(
    port: u16,
    latency_ms: u64,
    faults: Faults,
    big: bool,
    outage: Option<crate::sandbox::OutageWindow>,
) -> Result<()> {
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    let options = SandboxOptions {
        latency: Duration::from_millis(latency_ms),
        faults,
        big,
        activity: None,
    };
    let sandbox = Sandbox::start(address, options)
        .await
        .wrap_err_with(|| format!("cannot listen on {address}"))?;
    if let Some(outage) = outage {
        outage.schedule(&sandbox);
    }
    // Whoever started us may stop reading our output; that must not stop the server, so
    // write errors are ignored rather than panicking like `println!`.
    let mut stdout = std::io::stdout();
    let _ = writeln!(stdout, "{}", sandbox.base_url());
    let _ = writeln!(
        stdout,
        "Demo tokens: {}. Ctrl-C stops the server.",
        tokens::PERSONAS.join(", ")
    );
    let _ = stdout.flush();
    tokio::signal::ctrl_c().await?;
    sandbox.shutdown().await;
    Ok(())
}
