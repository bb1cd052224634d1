# One image for the three processes of the Procfile (web, worker, scheduler); the command picks the role.
FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# Dev dependencies are not needed: esbuild (a runtime dependency) transpiles the sources to dist/.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
RUN node scripts/build.mjs
RUN chown -R node:node /app/data
USER node
EXPOSE 8000
# The roles: dist/workers/web.js, worker.js, scheduler.js (see docker-compose.yml).
# node itself, not `npm run`, so SIGTERM reaches the process (run with --init or compose's init: true).
# Source maps: stack traces in the log name the TypeScript sources of dist/.
ENV NODE_OPTIONS=--enable-source-maps
CMD ["node", "dist/workers/web.js"]
