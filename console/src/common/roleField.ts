import type { PromptField } from './PromptDialog';
import { splitPicked } from './pickedValues';

export interface RoleFieldSpec {
  name: string;
  /** Already translated. */
  label: string;
  /**
   * The configured role names (admin/list-roles), or undefined when the list could not be read: the field is then
   * a text field taking a comma-separated list, so the action still works.
   */
  names: readonly string[] | undefined;
  /** The role text the dialog opens with: any name in it the list lacks is offered too, so it still shows. */
  current?: string;
  /** Whether several roles may be picked (the value is then a comma-separated list). */
  multiple?: boolean;
  /** Help under the picker, and under the text field that replaces it; already translated. */
  pickHelp: string;
  typeHelp: string;
  required?: boolean;
  testId?: string;
}

/** A role field of a PromptDialog: a picker over the configured roles, else (no list) a text field. */
export function roleField(spec: RoleFieldSpec): PromptField {
  const { name, label, names, current, multiple, pickHelp, typeHelp, required, testId } = spec;
  if (!names) return { name, label, helperText: typeHelp, required, testId };
  const extra = splitPicked(current).filter((role) => !names.includes(role));
  const options = [...names, ...extra].map((role) => ({ value: role, label: role }));
  return { name, label, helperText: pickHelp, required, testId, options, multiple };
}
