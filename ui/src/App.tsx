import { ChatView } from "./features/chat/ChatView";
import { Sidebar } from "./features/sessions/Sidebar";
import { StatusBar } from "./features/status/StatusBar";
import { useAppInfo } from "./state/useAppInfo";

export function App() {
  const appInfo = useAppInfo();
  return (
    <div className="app-shell">
      <Sidebar />
      <main className="app-shell__main">
        <ChatView />
      </main>
      <StatusBar state={appInfo.state} onRetry={appInfo.reload} />
    </div>
  );
}
