/**
 * The WhatsApp input mask of seed 002 §5 and §9: +## (##) #####.####.
 * @example maskWhatsapp('5511987654321') === '+55 (11) 98765.4321'
 */
export function maskWhatsapp(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 13);
  const parts = [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4, 9), digits.slice(9, 13)];
  let out = '';
  if (parts[0]) out += `+${parts[0]}`;
  if (parts[1]) out += ` (${parts[1]}`;
  if (parts[1] && (parts[2] || parts[1].length === 2) && digits.length > 4) out += ')';
  if (parts[2]) out += ` ${parts[2]}`;
  if (parts[3]) out += `.${parts[3]}`;
  return out;
}
