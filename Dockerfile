# Production image (ADR 0026). One image, two roles on one PostgreSQL: WORKERS=on (web + workers) or
# WORKERS=off (web only); see compose.yaml and README "Deployment".
#
# Build stage: all dependencies (dev ones build the app), then `npm run build`, which writes the Remix
# build (build/server/index.js, build/client/) and the server entry bundled by esbuild
# (build/server-entry.js: server/index.ts and its local imports, packages left to node_modules).
# Then the dev dependencies are pruned: the Vite SSR build keeps packages external, so the production
# node_modules ships with the build (STACK.md).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `npm install`, not `npm ci`: the lock lacks other platforms' optional packages (STACK.md).
RUN npm install --no-audit --no-fund
COPY . .
RUN NODE_ENV=production npm run build && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: the build, production node_modules, the SQL migrations (applied at boot) and data/
# (simulator candles, shipped news calendar), run by plain `node` as the unprivileged `node` user.
FROM node:20-bookworm-slim
WORKDIR /app
# Production talks to the real OANDA (the embedded simulator is refused when NODE_ENV=production: ADR 0011).
# SESSION_SECRET, ENCRYPTION_KEY and DATABASE_URL come from the environment at run time (compose.yaml).
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 OANDA_MODE=oanda DATA_DIR=/app/.data
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/db/migrations ./db/migrations
COPY --from=build --chown=node:node /app/data ./data
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
# /health answers 200 only when the database, the queue and the broker answer (app/services/platform/health.server.ts).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# Plain node on the bundled entry (no tsx at run time): cold start ADR 0026. Node is PID 1 and handles
# SIGTERM itself (ordered shutdown, server/index.ts); compose adds `init: true` to reap children.
# A 64 MB young-generation semi-space: page renders allocate a lot of short-lived objects and the default
# (16 MB) spent ~11 % of a page's CPU in the garbage collector, 7 % with this (docs/BENCHMARKS.md, issue 24).
CMD ["node", "--max-semi-space-size=64", "build/server-entry.js"]
