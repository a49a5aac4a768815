# One image for both processes: `npm start` (api) and `npm run worker`.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
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
CMD ["npm", "start"]
