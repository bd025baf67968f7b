import type { SvgIconProps } from '@mui/material/SvgIcon';
import Cancel from '@mui/icons-material/Cancel';
import CheckCircle from '@mui/icons-material/CheckCircle';
import Circle from '@mui/icons-material/Circle';
import DoNotDisturbOn from '@mui/icons-material/DoNotDisturbOn';
import Restaurant from '@mui/icons-material/Restaurant';
import Schedule from '@mui/icons-material/Schedule';

/** Status list icons are Material icon names in snake_case ('check_circle'), as the tenant configures them. */
const ICONS = { check_circle: CheckCircle, schedule: Schedule, cancel: Cancel, do_not_disturb_on: DoNotDisturbOn, restaurant: Restaurant } as const;

export function StatusIcon({ name, ...props }: { name: string | undefined } & SvgIconProps) {
  const Icon = ICONS[(name ?? '') as keyof typeof ICONS] ?? Circle;
  return <Icon {...props} />;
}
