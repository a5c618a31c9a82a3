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

{{- define "identity.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
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
