# syntax=docker/dockerfile:1
# Admin console image: the react-admin SPA (console/, built by vite into console/dist) served by unprivileged nginx
# on :8080 with an SPA fallback to index.html. Build from the repository root once console/ exists:
#   docker build -f deploy/console.Dockerfile -t identity-console .
# The console calls the API on the same origin (/api/auth): route /api/auth to the identity Service and / to this
# one (the chart's Ingress does so when console.enabled; docker compose mounts deploy/nginx/api-proxy.conf into
# /etc/nginx/console.d/ so this nginx does it), or build with VITE_API_URL=https://<api>/api/auth and list the
# console origin in TRUSTED_ORIGINS.

FROM node:22.21.1-bookworm-slim AS build
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false
# The console's package depends on @identity/service (the workspace whose `./access` export it imports), so npm
# links services/identity into node_modules and installs that workspace's packages too: a larger build stage, the
# same image (vite bundles only what the console imports).
COPY package.json package-lock.json ./
COPY services/identity/package.json services/identity/
COPY console/package.json console/
RUN npm ci --workspace console --ignore-scripts
COPY openapi.yaml ./
# The one part of the service the console imports (its package's `./access` export): the pure access model.
COPY services/identity/src/access services/identity/src/access
COPY console console
# Empty or a path (/api/auth): the console calls the API on its own origin. A URL
# (--build-arg VITE_API_URL=https://id.example.com/api/auth) calls the API on another origin, which must then list
# this console's origin in TRUSTED_ORIGINS (CORS).
ARG VITE_API_URL=""
# The product's name on the sign-in screen (the hosted pages' HOSTED_PAGES_PRODUCT_NAME); empty: "Identity".
ARG VITE_PRODUCT_NAME=""
RUN VITE_API_URL="$VITE_API_URL" VITE_PRODUCT_NAME="$VITE_PRODUCT_NAME" npm run build -w console

FROM nginxinc/nginx-unprivileged:1.28.0-alpine AS runtime
COPY deploy/nginx/console.conf /etc/nginx/conf.d/default.conf
# The CSP's connect-src names the API's origin when the console calls another one (scheme://host[:port] only;
# nothing for a path on this origin). console.d/ holds optional extra locations (compose: the API proxy).
ARG VITE_API_URL=""
USER root
RUN api_origin="$(printf '%s' "$VITE_API_URL" | sed -nE 's#^(https?://[^/]+).*$#\1#p')" \
 && sed -i "s#__API_ORIGIN__#${api_origin}#g" /etc/nginx/conf.d/default.conf \
 && mkdir -p /etc/nginx/console.d
COPY --from=build /app/console/dist /usr/share/nginx/html
# uid 101 is the image's unprivileged nginx user; nginx writes only under /tmp (an emptyDir in the chart).
USER 101:101
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=5s --retries=3 \
  CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/healthz"]
