# Production image: build, then run the one process (web + workers).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
# Production talks to the real OANDA (the embedded simulator is refused when NODE_ENV=production: ADR 0011).
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 OANDA_MODE=oanda
# The Vite SSR build keeps dependencies external: node_modules ships with the build (STACK.md).
COPY --from=build /app /app
EXPOSE 3000
CMD ["node", "--import", "tsx", "server/index.ts"]
