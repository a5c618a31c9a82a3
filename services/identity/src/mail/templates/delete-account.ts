import type { Translations } from './types';

/** Sent by POST /delete-user when deletion needs confirmation; the link deletes the account for good. */
export const deleteAccount: Translations = {
  RUS: {
    subject: 'Подтвердите удаление учётной записи',
    lines: [
      'Мы получили запрос на удаление вашей учётной записи.',
      'Чтобы подтвердить, нажмите кнопку ниже. Учётная запись и все её данные будут удалены безвозвратно.',
      'Если вы этого не запрашивали, проигнорируйте письмо и смените пароль: учётная запись останется без изменений.',
    ],
    button: 'Удалить учётную запись',
  },
  UKR: {
    subject: 'Підтвердьте видалення облікового запису',
    lines: [
      'Ми отримали запит на видалення вашого облікового запису.',
      'Щоб підтвердити, натисніть кнопку нижче. Обліковий запис і всі його дані буде видалено безповоротно.',
      'Якщо ви цього не запитували, проігноруйте лист і змініть пароль: обліковий запис залишиться без змін.',
    ],
    button: 'Видалити обліковий запис',
  },
  ENG: {
    subject: 'Confirm the deletion of your account',
    lines: [
      'We received a request to delete your account.',
      'To confirm, click the button below. Your account and its data will be deleted permanently; this cannot be undone.',
      'If you did not ask for this, ignore this email and change your password: your account stays as it is.',
    ],
    button: 'Delete my account',
  },
  SPA: {
    subject: 'Confirma la eliminación de tu cuenta',
    lines: [
      'Hemos recibido una solicitud para eliminar tu cuenta.',
      'Para confirmarlo, pulsa el botón de abajo. Tu cuenta y sus datos se eliminarán para siempre; no se puede deshacer.',
      'Si no lo has solicitado, ignora este correo y cambia tu contraseña: tu cuenta seguirá como está.',
    ],
    button: 'Eliminar mi cuenta',
  },
  GERMAN: {
    subject: 'Bestätigen Sie die Löschung Ihres Kontos',
    lines: [
      'Wir haben eine Anfrage erhalten, Ihr Konto zu löschen.',
      'Zur Bestätigung klicken Sie auf die Schaltfläche unten. Ihr Konto und seine Daten werden endgültig gelöscht; das lässt sich nicht rückgängig machen.',
      'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail und ändern Sie Ihr Passwort: Ihr Konto bleibt bestehen.',
    ],
    button: 'Konto löschen',
  },
  POL: {
    subject: 'Potwierdź usunięcie konta',
    lines: [
      'Otrzymaliśmy prośbę o usunięcie Twojego konta.',
      'Aby potwierdzić, kliknij przycisk poniżej. Konto i wszystkie jego dane zostaną trwale usunięte; tej operacji nie można cofnąć.',
      'Jeśli to nie Ty, zignoruj tę wiadomość i zmień hasło: Twoje konto pozostanie bez zmian.',
    ],
    button: 'Usuń konto',
  },
  FRA: {
    subject: 'Confirmez la suppression de votre compte',
    lines: [
      'Nous avons reçu une demande de suppression de votre compte.',
      'Pour confirmer, cliquez sur le bouton ci-dessous. Votre compte et ses données seront supprimés définitivement\u00a0; cette action est irréversible.',
      'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail et changez votre mot de passe\u00a0: votre compte restera inchangé.',
    ],
    button: 'Supprimer mon compte',
  },
  TURKEY: {
    subject: 'Hesabınızın silinmesini onaylayın',
    lines: [
      'Hesabınızı silmek için bir talep aldık.',
      'Onaylamak için aşağıdaki düğmeye tıklayın. Hesabınız ve tüm verileri kalıcı olarak silinecek; bu işlem geri alınamaz.',
      'Bu talebi siz yapmadıysanız bu e-postayı yok sayın ve şifrenizi değiştirin: hesabınız olduğu gibi kalacak.',
    ],
    button: 'Hesabımı sil',
  },
};
