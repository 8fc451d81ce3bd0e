//! `memo-cli acp`: Memo's agent for editors, over the Agent Client Protocol on stdio.

use std::process::ExitCode;
use std::sync::Arc;

pub async fn run() -> ExitCode {
    let service = Arc::new(crate::service());
    // First start: the home's bootstrap files, created only where missing.
    match service.init_home() {
        Ok(problems) => {
            for problem in problems {
                tracing::warn!(path = %problem.path, "{}", problem.message);
            }
        }
        Err(error) => {
            // Said on stderr, where the editor's log shows it; sessions fail with it too.
            eprintln!("memo-cli acp: {error}");
        }
    }
    let input = tokio::io::BufReader::new(tokio::io::stdin());
    memo_acp::serve(Arc::clone(&service), input, tokio::io::stdout()).await;
    service.shutdown().await;
    service
        .wait_for_background(std::time::Duration::from_secs(20))
        .await;
    ExitCode::SUCCESS
}
