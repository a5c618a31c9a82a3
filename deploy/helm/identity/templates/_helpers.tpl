{{/* Chart name, truncated to the DNS label limit. */}}
{{- define "identity.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Fully qualified app name: <release>-<chart> unless the release name already contains the chart name. */}}
{{- define "identity.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "identity.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "identity.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels; call with (dict "root" $ "component" "api"). */}}
{{- define "identity.selectorLabels" -}}
app.kubernetes.io/name: {{ include "identity.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* The service image. No default registry holds it: the operator builds, pushes and names it. */}}
{{- define "identity.image" -}}
{{- printf "%s:%s" (required "image.repository is required: build deploy/Dockerfile, push it to a registry the cluster pulls from, and set image.repository (and image.tag, default the chart's appVersion); docs/operations.md, Helm" .Values.image.repository) (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* The console image, when console.enabled. */}}
{{- define "identity.consoleImage" -}}
{{- printf "%s:%s" (required "console.image.repository is required when console.enabled: build deploy/console.Dockerfile, push it, and set console.image.repository (and console.image.tag, default the chart's appVersion); docs/operations.md, Helm" .Values.console.image.repository) (default .Chart.AppVersion .Values.console.image.tag) -}}
{{- end -}}

{{- define "identity.secretName" -}}
{{- required "secrets.existingSecret is required: the name of a Secret holding AUTH_SECRET, DATABASE_URL, REDIS_URL (and optionally SMTP_URL, SERVICE_API_KEY)" .Values.secrets.existingSecret -}}
{{- end -}}

{{/* Environment shared by the API, the worker and the migration Job. */}}
{{- define "identity.env" -}}
- name: NODE_ENV
  value: production
- name: PORT
  value: "3000"
- name: AUTH_BASE_PATH
  value: {{ .Values.basePath | quote }}
- name: PUBLIC_URL
  value: {{ .Values.settings.publicUrl | quote }}
- name: TRUSTED_ORIGINS
  value: {{ join "," .Values.settings.trustedOrigins | quote }}
- name: TRUST_PROXY
  value: {{ .Values.settings.trustProxy | quote }}
- name: REDIS_PREFIX
  value: {{ .Values.settings.redisPrefix | quote }}
- name: MAIL_FROM
  value: {{ .Values.settings.mailFrom | quote }}
- name: LOG_LEVEL
  value: {{ .Values.settings.logLevel | quote }}
- name: SHUTDOWN_DRAIN_MS
  value: {{ .Values.settings.shutdownDrainMs | quote }}
- name: HOSTED_PAGES_ENABLED
  value: {{ .Values.hostedPages.enabled | quote }}
- name: HOSTED_PAGES_PATH
  value: {{ .Values.hostedPages.path | quote }}
- name: HOSTED_PAGES_PRODUCT_NAME
  value: {{ .Values.hostedPages.productName | quote }}
- name: HOSTED_PAGES_DEFAULT_LANGUAGE
  value: {{ .Values.hostedPages.defaultLanguage | quote }}
{{- with .Values.hostedPages.logoUrl }}
- name: HOSTED_PAGES_LOGO_URL
  value: {{ . | quote }}
{{- end }}
{{- with .Values.hostedPages.accentColor }}
- name: HOSTED_PAGES_ACCENT_COLOR
  value: {{ . | quote }}
{{- end }}
{{- with .Values.hostedPages.supportUrl }}
- name: HOSTED_PAGES_SUPPORT_URL
  value: {{ . | quote }}
{{- end }}
{{- with .Values.hostedPages.termsUrl }}
- name: HOSTED_PAGES_TERMS_URL
  value: {{ . | quote }}
{{- end }}
{{- with .Values.hostedPages.privacyUrl }}
- name: HOSTED_PAGES_PRIVACY_URL
  value: {{ . | quote }}
{{- end }}
{{- with .Values.hostedPages.homeUrl }}
- name: HOSTED_PAGES_HOME_URL
  value: {{ . | quote }}
{{- end }}
- name: AUDIT_RETENTION_DAYS
  value: {{ .Values.eventsPrune.retentionDays | quote }}
- name: MIGRATE_ON_START
  value: "false"
- name: DATA_DIR
  value: /tmp/identity
- name: AUTH_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "identity.secretName" . }}
      key: {{ .Values.secrets.keys.authSecret }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "identity.secretName" . }}
      key: {{ .Values.secrets.keys.databaseUrl }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "identity.secretName" . }}
      key: {{ .Values.secrets.keys.redisUrl }}
- name: SMTP_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "identity.secretName" . }}
      key: {{ .Values.secrets.keys.smtpUrl }}
      optional: true
- name: SERVICE_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "identity.secretName" . }}
      key: {{ .Values.secrets.keys.serviceApiKey }}
      optional: true
{{- range .Values.secrets.extra }}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ .secret }}
      key: {{ .key }}
{{- end }}
{{- range $name, $value := .Values.extraEnv }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end -}}

{{/* Checksum of the config file, so pods roll when it changes. */}}
{{- define "identity.configChecksum" -}}
{{- toYaml .Values.config | sha256sum -}}
{{- end -}}

{{/*
The pod of a one-off `node dist/cli.js <command>` run (the migration Job, the words CronJob): the existing Secret
only, non-root, read-only root with /tmp on an emptyDir. Call with
(dict "root" $ "component" "migrate" "command" "migrate" "resources" .Values.migrations.resources).
*/}}
{{- define "identity.cliPod" -}}
metadata:
  labels:
    {{- include "identity.selectorLabels" (dict "root" .root "component" .component) | nindent 4 }}
spec:
  restartPolicy: Never
  {{- with .root.Values.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .root.Values.serviceAccount.name }}
  serviceAccountName: {{ . }}
  {{- end }}
  automountServiceAccountToken: false
  securityContext:
    {{- toYaml .root.Values.podSecurityContext | nindent 4 }}
  containers:
    - name: {{ .component }}
      image: {{ include "identity.image" .root | quote }}
      imagePullPolicy: {{ .root.Values.image.pullPolicy }}
      command: ["node", "dist/cli.js", {{ .command | quote }}]
      env:
        {{- include "identity.env" .root | nindent 8 }}
      resources:
        {{- toYaml .resources | nindent 8 }}
      securityContext:
        {{- toYaml .root.Values.securityContext | nindent 8 }}
      volumeMounts:
        - name: tmp
          mountPath: /tmp
  volumes:
    - name: tmp
      emptyDir:
        sizeLimit: 64Mi
{{- end -}}
