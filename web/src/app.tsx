export function App() {
  return (
    <main>
      <h1>Model Gateway</h1>
      <p>One key, many models, through an OpenAI-compatible API.</p>
    </main>
  );
}
