# syntax=docker/dockerfile:1
# Any service of this workspace as one container; APP names the package, and the context is the repository root:
#   docker build --build-arg APP=email-review --build-arg PORT=3001 -t email-review .
#   docker build --build-arg APP=helpdesk --build-arg PORT=3002 -t helpdesk .
#   docker build --build-arg APP=@repo/llm-emulator --target llm-emulator -t llm-emulator .
# Run: docker run -p 3001:3001 -e LLM_A_API_KEY=... [-e DATABASE_URL=postgres://...] email-review
#      docker run -p 3002:3002 -e AGENT_LLM_API_KEY=... helpdesk
# The emulator: OpenAI base URL http://<host>:4010/v1, Gemini base URL http://<host>:4010, any non-empty key.

# Node 24, an LTS line supported until April 2028 (packages/deployment's supported-node test fails on a line past its
# end of life).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
# pnpm from npm rather than corepack, whose download of pnpm at build time is one more network dependency.
RUN npm install -g pnpm@10.34.8
ENV TURBO_TELEMETRY_DISABLED=1 CI=true
WORKDIR /repo
# The lockfile alone decides what is downloaded: this layer stays cached until the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
# Declared only now, so that every image shares the layers above.
ARG APP
RUN test -n "$APP" || { echo 'APP is required: --build-arg APP=email-review|helpdesk|@repo/llm-emulator' >&2; exit 1; }
RUN pnpm turbo run build --filter=${APP}...
# A self-contained directory: the package's dist, its production dependencies only, and copies of the built
# workspace packages it uses. pnpm 10 deploys only with inject-workspace-packages; it is set for this command
# alone, so development keeps its symlinked workspace packages.
RUN pnpm deploy --config.inject-workspace-packages=true --filter ${APP} --prod /out
# Sources, tests and build settings have no use at run time; everything else the package ships (dist, and
# assets such as a web/ folder) goes into the image.
RUN rm -rf /out/src /out/test /out/tsconfig.json /out/tsconfig.test.json /out/jest.config.cjs

# The LLM provider emulator (docker-compose.yml's `offline` profile): a command-line tool with its own variables.
FROM ${NODE_IMAGE} AS llm-emulator
# In a container the emulator must listen on every interface to be reachable from the other services.
ENV NODE_ENV=production EMULATOR_HOST=0.0.0.0 EMULATOR_PORT=4010
WORKDIR /app
COPY --from=build /out ./
USER node
EXPOSE 4010
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.EMULATOR_PORT || 4010) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/cli.js"]

# The services (the default target): each reads PORT and HOST, listens on every interface by default and starts
# with dist/server.js. PORT is the one the app defaults to, so the image and a local run agree.
FROM ${NODE_IMAGE} AS app
ARG PORT
RUN test -n "$PORT" || { echo 'PORT is required: --build-arg PORT=3001 (email-review) or 3002 (helpdesk)' >&2; exit 1; }
ENV NODE_ENV=production PORT=${PORT}
WORKDIR /app
# Owned by root (COPY's default): the service's user can read its code but not rewrite it.
COPY --from=build /out ./
# The `node` user (uid 1000) comes with the official image.
USER node
EXPOSE ${PORT}
# Healthy means serving: /readyz (its database reached), not /healthz (the process answers), so that whatever waits
# for a healthy container (compose's service_healthy) does not send traffic that would get 503. No curl in slim
# images; node has fetch.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server.js"]
