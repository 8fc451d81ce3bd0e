// Each test file uses a different part of this support module.
#![allow(dead_code)]

//! A Memo home with a mock provider, a work folder and a service over them.

use std::sync::Arc;
use std::time::Duration;

use memo_config::{MemoHome, MemoryCredentialStore};
use memo_protocol::{AgentEvent, Op, SessionId, SessionSummary, UserInput};
use memo_service::{Service, StartRequest};
use memo_test_support::{MockLlmServer, MockResponse};

pub struct Fixture {
    pub mock: MockLlmServer,
    pub home: tempfile::TempDir,
    pub work: tempfile::TempDir,
    pub service: Service,
}

pub fn mock_config(base_url: &str) -> String {
    format!(
        "current_provider = \"mock\"\n[[providers.mock]]\nname = \"mock\"\nmodel = \"m1\"\nbase_url = \"{base_url}/v1\"\n"
    )
}

pub fn service_at(home: &std::path::Path, keys: Arc<MemoryCredentialStore>) -> Service {
    Service::new(Ok(MemoHome::at(home)), keys, Arc::new(|_: &str| None))
}

pub async fn fixture(responses: Vec<MockResponse>) -> Fixture {
    let mock = MockLlmServer::start_with(responses).await.unwrap();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.toml"),
        mock_config(&mock.base_url()),
    )
    .unwrap();
    let service = service_at(home.path(), Arc::new(MemoryCredentialStore::new()));
    Fixture {
        mock,
        home,
        work,
        service,
    }
}

impl Fixture {
    /// Puts `before` ahead of the mock provider's config.toml (top-level keys such as
    /// `approval_mode`) and `after` behind it (tables such as `[mcp_servers.x]`).
    pub fn configure(&self, before: &str, after: &str) {
        let config = self.home.path().join("config.toml");
        let text = std::fs::read_to_string(&config).unwrap();
        std::fs::write(&config, format!("{before}\n{text}\n{after}")).unwrap();
    }

    pub fn start(&self) -> SessionSummary {
        self.service
            .start_session(StartRequest {
                cwd: self.work.path().to_path_buf(),
                ..StartRequest::default()
            })
            .unwrap()
    }

    /// Sends one message and waits for its turn to end; returns the streamed text.
    pub async fn turn(&self, id: &SessionId, text: &str) -> String {
        let after = self.service.session(id).unwrap().last_seq;
        let mut events = self.service.subscribe(id, after).unwrap();
        self.service
            .submit(
                id,
                Op::UserTurn {
                    input: UserInput::text(text),
                },
            )
            .unwrap();
        let mut streamed = String::new();
        loop {
            let env = tokio::time::timeout(Duration::from_secs(10), events.recv())
                .await
                .unwrap()
                .unwrap();
            match env.event {
                AgentEvent::TextDelta { delta } => streamed.push_str(&delta),
                AgentEvent::TurnEnded { .. } => return streamed,
                _ => {}
            }
        }
    }

    pub fn turn_starts(&self, id: &SessionId) -> Vec<(u64, String)> {
        self.service
            .events(id, 0, usize::MAX)
            .unwrap()
            .into_iter()
            .filter_map(|e| match e.event {
                AgentEvent::TurnStarted { input } => Some((e.seq, input.text)),
                _ => None,
            })
            .collect()
    }

    pub async fn finish(self) {
        self.service.shutdown().await;
        self.mock.shutdown().await;
    }
}
