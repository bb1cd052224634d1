# One image for the three processes of the Procfile (web, worker, scheduler); the command picks the role.
FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# tsx (a runtime dependency) runs the TypeScript sources; dev dependencies are not needed.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
RUN chown -R node:node /app/data
USER node
EXPOSE 8000
# The roles: workers/web.ts, workers/worker.ts, workers/scheduler.ts (see docker-compose.yml).
# node itself, not `npm run`, so SIGTERM reaches the process (run with --init or compose's init: true).
CMD ["node", "--import", "tsx", "workers/web.ts"]
