import type { PromptField } from '../common/PromptDialog';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The fields of the create and edit dialogs: URL, event types, description, enabled. */
export function endpointFields(translate: Translate): PromptField[] {
  const t = (key: string) => translate(`resources.webhooks.${key}`);
  return [
    { name: 'url', label: t('fields.url'), required: true, helperText: t('help.url'), testId: 'webhook-url' },
    {
      name: 'eventTypes',
      label: t('fields.eventTypes'),
      required: true,
      helperText: t('help.eventTypes'),
      testId: 'webhook-event-types',
    },
    { name: 'description', label: t('fields.description'), testId: 'webhook-description' },
    {
      name: 'enabled',
      label: t('fields.enabled'),
      required: true,
      helperText: t('help.enabled'),
      options: [
        { value: 'yes', label: t('yes') },
        { value: 'no', label: t('no') },
      ],
      testId: 'webhook-enabled',
    },
  ];
}
