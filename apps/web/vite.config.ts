import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const target = process.env.API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': target,
      '/media': target,
      '/socket.io': { target, ws: true },
    },
  },
  build: { chunkSizeWarningLimit: 2000 },
});
