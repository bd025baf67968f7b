import { publicMessages as messages } from './public-messages';

/**
 * The password policy (OWASP ASVS 5.0 §6.2, docs/auth.md "Password policy"), shared
 * by the server (enforced on every password set: sign-up, profile, an admin setting an
 * agent's password) and the browser forms (convenience):
 * - at least 8 characters (below 6 the seed's message 'A senha deve conter pelo menos 6
 *   caracteres' stays; 6 and 7 get the 8-character message), at most 256;
 * - not one of the most common passwords (a small bundled list, the top of the public breach
 *   corpora plus Brazilian favourites), compared case-insensitively;
 * - not one character repeated ('aaaaaaaa') nor a straight run ('12345678', 'abcdefgh', 'qwertyui');
 * - not the e-mail or its name part.
 * No composition rules (ASVS: they do not help); spaces and any Unicode are allowed.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

const COMMON = new Set(
  (
    '123456 123456789 12345678 password qwerty 12345 1234567 111111 1234567890 123123 abc123 1234 password1 iloveyou 1q2w3e4r 000000 qwerty123 zaq12wsx dragon sunshine princess letmein 654321 monkey 27653 1qaz2wsx 123321 qwertyuiop superman asdfghjkl ' +
    'trustno1 football baseball welcome welcome1 admin admin123 admin1234 administrator root toor master master123 passw0rd p@ssw0rd p@ssword password123 password12 senha senha123 senha1234 senha12345 mudar123 mudar@123 trocar123 ' +
    'brasil brasil123 flamengo corinthians palmeiras saopaulo vasco gremio cruzeiro santos botafogo fluminense internacional atletico amor amorzinho meuamor teamo euteamo jesus jesus123 deus deusefiel familia ' +
    'gabriel lucas mateus matheus felipe guilherme rafael pedro joao maria ana juliana camila beatriz fernanda amanda bruna larissa leticia ' +
    '102030 10203040 123mudar abcd1234 a1b2c3d4 q1w2e3r4 1q2w3e 1q2w3e4r5t qazwsx asdf1234 asdfgh zxcvbnm 159753 147258 147258369 159357 741852963 ' +
    'mudar changeme default guest user usuario teste teste123 test test123 demo demo123 suporte suporte123 atendimento atendimento123 empresa empresa123 ' +
    'iloveyou1 whatever freedom shadow michael jennifer hunter ranger buster soccer harley batman starwars pokemon naruto minecraft ' +
    'qwerty1 qwertyu qwerty12 qwe123 qweasd qweasdzxc 1qazxsw2 aaaaaa abcdef abcdefg abcdefgh 112233 121212 123654 123qwe 123abc 1234qwer ' +
    'senhasenha password1234 passwordpassword 11223344 88888888 66666666 12341234 11111111 00000000 87654321 98765432 123456789a 12345678a'
  ).split(' '),
);

const RUNS = ['0123456789012', 'abcdefghijklmnopqrstuvwxyz', 'qwertyuiopasdfghjklzxcvbnm', '1qaz2wsx3edc4rfv', 'qazwsxedcrfvtgbyhnujmikolp'];

function isRun(lower: string): boolean {
  if (lower.length < 4) return false;
  const reversed = [...lower].reverse().join('');
  return RUNS.some((run) => run.includes(lower) || run.includes(reversed));
}

/** The policy's message for `password`, or null when it is acceptable. */
export function passwordProblem(password: string, context: { email?: string | null } = {}): string | null {
  if (password.length === 0) return messages.validation.passwordRequired;
  if (password.length < 6) return messages.validation.passwordMin;
  if (password.length < PASSWORD_MIN) return messages.validation.passwordMin8;
  if (password.length > PASSWORD_MAX) return messages.validation.passwordTooLong;
  const lower = password.toLowerCase();
  const email = context.email?.trim().toLowerCase() ?? '';
  const name = email.split('@')[0] ?? '';
  if (
    COMMON.has(lower) ||
    new Set(lower).size === 1 ||
    isRun(lower) ||
    (email && (lower === email || (name.length >= 4 && lower.includes(name))))
  ) {
    return messages.validation.passwordWeak;
  }
  return null;
}
