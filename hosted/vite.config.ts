import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** `npm run dev`: the pages on :5174, /api and config.json proxied to a local identity service (API_URL, default :3000). */
const target = process.env.API_URL ?? 'http://localhost:3000';

/**
 * base './': asset URLs are relative to the page's <base href>, so one bundle works at "/" (a CDN or its own
 * host) and under the service's pages path ("/auth/" by default), where the service rewrites <base>.
 */
export default defineConfig({
  base: './',
  plugins: [react()],
  server: { port: 5174, proxy: { '/api': { target, changeOrigin: false } } },
  build: { outDir: 'dist', chunkSizeWarningLimit: 500 },
});
