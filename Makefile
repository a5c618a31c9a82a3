# Thin wrappers over the npm scripts. `make help` lists the targets.
.DEFAULT_GOAL := help
SHELL := /bin/bash
# npm runs the package scripts with bash too. Debian's sh (dash), npm's default, dies of a terminal's Ctrl-C even
# when the command it waits for stops cleanly (exit 0), and npm then dies of it as well: `make run` reported
# "Interrupt" for a clean stop. bash waits for its command and exits as it did.
export npm_config_script_shell := $(SHELL)
NPM_CI := npm ci --no-audit --no-fund
STAMP := node_modules/.install-stamp
MANIFESTS := package.json package-lock.json $(wildcard services/*/package.json) console/package.json hosted/package.json

# The project runs and is tested on Node.js 22 (package.json "engines", the images, the GitHub matrix). When the
# machine's node is older, the targets use Node.js 22 from the npm registry's `node` package, kept under .tools/
# (npm itself then runs on it too, so installs and tests see the declared version).
NODE_VERSION := 22.23.3
NODE_MAJOR := $(shell node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
ifeq ($(shell [ "$(NODE_MAJOR)" -ge 22 ] 2>/dev/null && echo yes),yes)
NODE_TOOL :=
else
NODE_TOOL := .tools/node/node_modules/.bin/node
export PATH := $(CURDIR)/.tools/node/node_modules/.bin:$(PATH)
$(NODE_TOOL):
	npm install --prefix .tools/node --no-audit --no-fund --no-package-lock node@$(NODE_VERSION)
endif

$(STAMP): $(MANIFESTS) | $(NODE_TOOL)
	$(NPM_CI)
	@touch $(STAMP)

.PHONY: help install build console hosted run dev test test-faults lint format typecheck migrate worker openapi schema-snapshot bench clean screenshots

# The console bundle is rebuilt when any of its sources (or the access model it imports) is newer than its
# index.html, which vite rewrites on every build: make's own timestamps are the staleness check, so a second
# `make run` costs nothing and the service never runs a build tool itself.
CONSOLE_SOURCES := $(shell find console/src services/identity/src/access -type f 2>/dev/null) \
  console/index.html console/vite.config.ts console/tsconfig.json console/package.json
CONSOLE_BUNDLE := console/dist/index.html
$(CONSOLE_BUNDLE): $(STAMP) $(CONSOLE_SOURCES)
	npm run build -w console
# `CONSOLE_ENABLED=true make run` serves the console at /console: build it first when missing or stale.
CONSOLE_FOR_RUN := $(if $(filter true 1 yes on TRUE YES ON,$(CONSOLE_ENABLED)),$(CONSOLE_BUNDLE))
# The hosted sign-in pages, the same way: `HOSTED_PAGES_ENABLED=true make run` builds them when missing or stale.
HOSTED_SOURCES := $(shell find hosted/src hosted/public -type f 2>/dev/null) \
  hosted/index.html hosted/vite.config.ts hosted/tsconfig.json hosted/package.json
HOSTED_BUNDLE := hosted/dist/index.html
$(HOSTED_BUNDLE): $(STAMP) $(HOSTED_SOURCES)
	npm run build -w hosted
HOSTED_FOR_RUN := $(if $(filter true 1 yes on TRUE YES ON,$(HOSTED_PAGES_ENABLED)),$(HOSTED_BUNDLE))

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

install: $(STAMP) ## Install dependencies (only when the manifests changed)

build: $(STAMP) ## Compile the service to services/identity/dist
	npm run build

console: $(CONSOLE_BUNDLE) ## Build the admin console to console/dist (only when its sources changed)

hosted: $(HOSTED_BUNDLE) ## Build the hosted sign-in pages to hosted/dist (only when their sources changed)

run: build $(CONSOLE_FOR_RUN) $(HOSTED_FOR_RUN) ## Run the API (embedded PostgreSQL and in-process stores when DATABASE_URL/REDIS_URL are unset)
	npm start

dev: $(STAMP) ## Run the API with reload on change
	npm run dev

test: $(STAMP) ## Lint, type-check and run the whole test suite, the fault suite last (needs PostgreSQL and Redis: see the README)
	npm run lint
	npm run typecheck -w services/identity
	npm run typecheck -w console
	npm run typecheck -w hosted
	npm test
	npm run test:faults

test-faults: $(STAMP) ## Run only the fault suite: PostgreSQL and Redis of its own restarted, paused and slowed under the API
	npm run test:faults

lint: $(STAMP) ## Lint, check formatting (biome) and import boundaries (dependency-cruiser)
	npm run lint

format: $(STAMP) ## Format the code (biome)
	npm run format

typecheck: $(STAMP) ## Type-check sources and tests (service, console and hosted pages)
	npm run typecheck -w services/identity
	npm run typecheck -w console
	npm run typecheck -w hosted

migrate: build ## Apply database migrations
	npm run migrate

worker: build ## Run the mail worker
	npm run worker

openapi: build ## Regenerate openapi.yaml from the route schemas
	npm run openapi

schema-snapshot: $(STAMP) ## Rewrite services/identity/src/db/schema.snapshot.txt from a freshly migrated database (needs PostgreSQL)
	npm run schema:snapshot

bench: build hosted ## Benchmark get-session, sign-in and their floors on a deployed-like instance (prints a table)
	npm run bench

SHOTS := users-list user-show user-organizations organization-show users-list-narrow user-show-narrow organization-show-narrow \
  user-set-role user-edit user-set-role-narrow dashboard dashboard-narrow organizations-list organization-details \
  organization-edit user-sessions users-list-bulk users-bulk-results user-banned-narrow impersonation-banner \
  audit audit-narrow webhooks webhooks-narrow webhook-show webhook-show-narrow webhook-secret two-factor-sign-in \
  two-factor-sign-in-narrow user-second-factor user-second-factor-narrow user-sessions-signed-in-with \
  user-sessions-signed-in-with-360
HOSTED_SHOTS := sign-in sign-in-error sign-up email-verified email-changed link-expired forgot-password reset-password error signed-out \
  signed-out-dark sign-in-dark-Polish account-deleted invitation invitation-320 invitation-signed-out sign-in-320 sign-up-320 forgot-password-320 reset-password-320 \
  email-verified-320 email-changed-320 signed-out-320 account-deleted-320 error-320 \
  two-factor two-factor-wrong-code two-factor-backup-German two-factor-locked two-factor-320 security-off security-scan \
  security-codes security-on security-dark security-stale security-320 security-scan-320 security-codes-320 \
  delete-account delete-account-dark-320 delete-account-320 delete-account-signed-out-320 sign-in-captcha \
  sign-in-captcha-refused sign-in-passkey sign-in-passkey-refused sign-in-passkey-320 security-passkeys-none \
  security-passkey-add security-passkeys security-passkeys-dark security-passkey-rename security-passkey-remove \
  security-passkey-stale security-passkey-add-320 security-passkeys-320 security-passkey-remove-320 \
  magic-link-ask magic-link-sent magic-link-confirm magic-link-used magic-link-other-browser-320 \
  sign-in-passwordless email-code-sent email-code-wrong \
  invitation-verify invitation-verify-320 invitation-link-sent-320 sign-up-taken-320 reset-password-done \
  reset-password-done-320 delete-account-kept delete-account-kept-320 error-cancelled-320 error-not-found-320
# E2E names the console e2e files to run (all by default), e.g. for one page's pictures only:
#   make screenshots E2E=e2e/webhooks.e2e.test.ts SHOTS="webhooks webhooks-narrow"
E2E ?=
screenshots: $(STAMP) ## Run the console and hosted pages e2e and copy their screenshots to */e2e/screenshots/ (the docs show them)
	npm run test:e2e -w console -- $(E2E)
	for s in $(SHOTS); do cp console/e2e/output/$$s.png console/e2e/screenshots/$$s.png; done
	npm run test:e2e -w hosted
	mkdir -p hosted/e2e/screenshots
	for s in $(HOSTED_SHOTS); do cp hosted/e2e/output/$$s.png hosted/e2e/screenshots/$$s.png; done

clean: ## Remove build output (keeps .data/)
	rm -rf services/*/dist services/*/dist-bench console/dist hosted/dist
