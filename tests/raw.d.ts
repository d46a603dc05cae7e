// Vite's `?raw` imports (a file's text), used by tests that read the project's docs.
declare module '*?raw' {
  const content: string;
  export default content;
}
