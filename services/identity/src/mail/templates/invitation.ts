import type { Language } from '../jobs';
import type { Translations } from './types';

/** Sent when a member invites someone to an organization; the link opens the invitation. */
export const invitation: Translations = {
  RUS: {
    subject: '{inviterName} приглашает вас в организацию «{organizationName}»',
    lines: [
      '{inviterName} ({inviterEmail}) приглашает вас присоединиться к организации «{organizationName}» с ролью «{role}».',
      'Нажмите кнопку ниже, чтобы просмотреть и принять приглашение.',
      'Если вы не ждали этого приглашения, просто проигнорируйте письмо.',
    ],
    button: 'Открыть приглашение',
  },
  UKR: {
    subject: '{inviterName} запрошує вас до організації «{organizationName}»',
    lines: [
      '{inviterName} ({inviterEmail}) запрошує вас приєднатися до організації «{organizationName}» з роллю «{role}».',
      'Натисніть кнопку нижче, щоб переглянути та прийняти запрошення.',
      'Якщо ви не очікували цього запрошення, просто проігноруйте лист.',
    ],
    button: 'Переглянути запрошення',
  },
  ENG: {
    subject: '{inviterName} invited you to join {organizationName}',
    lines: [
      '{inviterName} ({inviterEmail}) has invited you to join {organizationName} with the {role} role.',
      'Click the button below to view and accept the invitation.',
      'If you were not expecting this invitation, you can ignore this email.',
    ],
    button: 'View invitation',
  },
  SPA: {
    subject: '{inviterName} te ha invitado a unirte a {organizationName}',
    lines: [
      '{inviterName} ({inviterEmail}) te ha invitado a unirte a la organización {organizationName} con el rol de {role}.',
      'Pulsa el botón de abajo para ver y aceptar la invitación.',
      'Si no esperabas esta invitación, puedes ignorar este correo.',
    ],
    button: 'Ver la invitación',
  },
  GERMAN: {
    subject: '{inviterName} hat Sie zu {organizationName} eingeladen',
    lines: [
      '{inviterName} ({inviterEmail}) hat Sie eingeladen, der Organisation {organizationName} als {role} beizutreten.',
      'Klicken Sie auf die Schaltfläche unten, um die Einladung anzusehen und anzunehmen.',
      'Wenn Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
    ],
    button: 'Einladung ansehen',
  },
  POL: {
    subject: '{inviterName} zaprasza Cię do organizacji {organizationName}',
    lines: [
      '{inviterName} ({inviterEmail}) zaprasza Cię do organizacji {organizationName} z rolą „{role}”.',
      'Kliknij przycisk poniżej, aby zobaczyć i przyjąć zaproszenie.',
      'Jeśli to zaproszenie nie jest przeznaczone dla Ciebie, zignoruj tę wiadomość.',
    ],
    button: 'Zobacz zaproszenie',
  },
  FRA: {
    subject: '{inviterName} vous invite à rejoindre {organizationName}',
    lines: [
      '{inviterName} ({inviterEmail}) vous invite à rejoindre l’organisation {organizationName} en tant que {role}.',
      'Cliquez sur le bouton ci-dessous pour consulter et accepter l’invitation.',
      'Si vous n’attendiez pas cette invitation, vous pouvez ignorer cet e-mail.',
    ],
    button: 'Voir l’invitation',
  },
  TURKEY: {
    subject: '{inviterName} sizi {organizationName} organizasyonuna davet etti',
    lines: [
      '{inviterName} ({inviterEmail}) sizi {organizationName} organizasyonuna {role} rolüyle katılmaya davet etti.',
      'Daveti görüntülemek ve kabul etmek için aşağıdaki düğmeye tıklayın.',
      'Bu daveti beklemiyorsanız bu e-postayı yok sayabilirsiniz.',
    ],
    button: 'Daveti görüntüle',
  },
};

/** The built-in roles (spec: owner, admin, member) by language; other roles are shown as they are. */
const ROLE_NAMES: Readonly<Record<Language, Readonly<Record<string, string>>>> = {
  RUS: { owner: 'владелец', admin: 'администратор', member: 'участник' },
  UKR: { owner: 'власник', admin: 'адміністратор', member: 'учасник' },
  ENG: { owner: 'owner', admin: 'admin', member: 'member' },
  SPA: { owner: 'propietario', admin: 'administrador', member: 'miembro' },
  GERMAN: { owner: 'Inhaber', admin: 'Administrator', member: 'Mitglied' },
  POL: { owner: 'właściciel', admin: 'administrator', member: 'członek' },
  FRA: { owner: 'propriétaire', admin: 'administrateur', member: 'membre' },
  TURKEY: { owner: 'sahip', admin: 'yönetici', member: 'üye' },
};

/** `role` may list several roles separated by commas (better-auth stores them so). */
export function roleLabel(role: string, language: Language): string {
  const names = ROLE_NAMES[language];
  return role
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => (Object.hasOwn(names, r) ? names[r] : r))
    .join(', ');
}
