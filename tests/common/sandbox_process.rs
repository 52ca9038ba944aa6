//! `quire sandbox` as a separate process on a free loopback port, so an end-to-end test can
//! point the real binary at it and then read what the server stored over HTTP.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

pub struct SandboxProcess {
    child: Child,
    pub base_url: String,
}

impl SandboxProcess {
    pub fn start() -> SandboxProcess {
        SandboxProcess::start_with(&[])
    }

    /// `quire sandbox` with more flags (`--like-public`).
    pub fn start_with(flags: &[&str]) -> SandboxProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_quire"))
            .args(["sandbox", "--port", "0"])
            .args(flags)
            .env("HOME", std::env::temp_dir())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start quire sandbox");
        let stdout = child.stdout.take().expect("sandbox stdout");
        let mut reader = BufReader::new(stdout);
        let mut first_line = String::new();
        reader
            .read_line(&mut first_line)
            .expect("sandbox prints its address");
        // Keep reading whatever else it prints, as a terminal would.
        std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
        SandboxProcess {
            child,
            base_url: first_line.trim().to_string(),
        }
    }

    /// GET `path` (under /v1) as `token`, decoded as JSON.
    pub async fn get(&self, token: &str, path: &str) -> serde_json::Value {
        reqwest::Client::new()
            .get(format!("{}/v1{path}", self.base_url))
            .bearer_auth(token)
            .send()
            .await
            .expect("request")
            .json()
            .await
            .expect("json")
    }
}

impl SandboxProcess {
    /// [`SandboxProcess::get`] as `demo-admin`, from a test that is not async (a pty test).
    pub fn read(&self, path: &str) -> serde_json::Value {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
            .block_on(self.get("demo-admin", path))
    }
}

impl Drop for SandboxProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
