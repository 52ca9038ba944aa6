//! An in-process sandbox for tests that drive the real binary (pty or subprocess) and put the
//! server out of reach and back: the sandbox runs on its own Tokio runtime so a plain `#[test]`
//! can start it, change its outage and read what it stored.

use quire::sandbox::{Outage, Sandbox, SandboxOptions, tokens};

pub struct OutageSandbox {
    pub runtime: tokio::runtime::Runtime,
    pub sandbox: Sandbox,
}

impl OutageSandbox {
    pub fn start() -> OutageSandbox {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let sandbox = runtime
            .block_on(Sandbox::start(
                "127.0.0.1:0".parse().unwrap(),
                SandboxOptions::default(),
            ))
            .unwrap();
        OutageSandbox { runtime, sandbox }
    }

    /// Puts the sandbox out of reach (or back), once in effect.
    pub fn outage(&self, outage: Outage) {
        self.runtime.block_on(self.sandbox.set_outage(outage));
    }

    /// The command line that points quire at this sandbox as the demo's admin.
    pub fn args(&self) -> Vec<String> {
        [
            "--api-url",
            &self.sandbox.base_url(),
            "--token",
            tokens::ADMIN,
        ]
        .map(str::to_string)
        .to_vec()
    }

    pub fn shutdown(self) {
        self.runtime.block_on(self.sandbox.shutdown());
    }
}
