/** The profile's notice when a new password is required, by reason (User.updatePassReason). */
export const passwordNotices = {
  recovery: 'Recuperação de senha: defina uma nova senha para continuar.',
  emailConfirmed: 'E-mail confirmado. Por segurança, a senha escolhida no cadastro foi descartada: defina uma nova senha para continuar.',
} as const;
