# One image for both processes: the API (the default command) and the worker
# (`node --import tsx cmd/worker/main.ts`). Node runs the entrypoint itself, with tsx as its
# loader: SIGTERM reaches the process's own graceful shutdown, with no wrapper in between.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY cmd ./cmd
COPY internal ./internal
COPY ports ./ports
COPY adapters ./adapters
USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "cmd/api/main.ts"]
