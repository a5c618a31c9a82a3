import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** `npm run dev`: the console on :5173, /api proxied to a local identity service (API_URL, default :3000). */
const target = process.env.API_URL ?? 'http://localhost:3000';

/**
 * base './': asset URLs are relative to the page's <base href> (index.html), so one bundle works at "/" (its own
 * container, vite preview) and at "/console/" (served by the identity service, which rewrites <base>).
 */
export default defineConfig({
  base: './',
  plugins: [react()],
  server: { port: 5173, proxy: { '/api': { target, changeOrigin: false } } },
  preview: { proxy: { '/api': { target, changeOrigin: false } } },
  build: { outDir: 'dist', chunkSizeWarningLimit: 2000 },
});
