import { useEffect, useState } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Check from '@mui/icons-material/Check';
import Close from '@mui/icons-material/Close';
import { useRecordContext } from 'react-admin';
import { messages } from '@atendimento/schemas';
import type { RegisterColumn, RegisterSchema } from '@atendimento/schemas/registers/index';
import { formatPhone } from '@atendimento/console/ui/format';
import { usePhoneFormats } from '@atendimento/console/ui/phoneFormats';
import { lookup } from '../widgets/lookup';

/** Chips shown in a table cell before '+n' (seed 000 §9: 1 or 2 in tables). */
const TABLE_CHIPS = 2;

function valueAt(record: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), record);
}

/** pt-BR date display (seed 000 §9: DD/MM/YYYY - HH:mm:ss and DD/MM/YYYY). */
function formatDate(value: unknown, withTime: boolean): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
  return withTime ? `${day} - ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` : day;
}

const titleCache = new Map<string, string>();

/** Titles of another register's ids, cached for the page's life (chips of agents, tags...). */
function useTitles(resource: string | undefined, ids: string[]): Record<string, string> {
  const key = ids.join(',');
  const [titles, setTitles] = useState<Record<string, string>>(() => Object.fromEntries(ids.flatMap((id) => (titleCache.has(`${resource}:${id}`) ? [[id, titleCache.get(`${resource}:${id}`)!]] : []))));
  useEffect(() => {
    if (!resource || !key) return;
    const missing = key.split(',').filter((id) => !titleCache.has(`${resource}:${id}`));
    if (missing.length === 0) return;
    const controller = new AbortController();
    lookup(resource, { ids: missing }, controller.signal)
      .then((found) => {
        for (const option of found) titleCache.set(`${resource}:${option.id}`, option.label);
        setTitles((prev) => ({ ...prev, ...Object.fromEntries(found.map((o) => [o.id, o.label])) }));
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [resource, key]);
  return titles;
}

function optionTitles(schema: RegisterSchema | undefined): Record<string, string> {
  const options = schema?.items?.oneOf ?? schema?.oneOf ?? [];
  return Object.fromEntries(options.filter((o) => o.const !== undefined).map((o) => [String(o.const), o.title ?? String(o.const)]));
}

function Chips({ values, schema, reference }: { values: string[]; schema?: RegisterSchema; reference?: string }) {
  const titles = { ...optionTitles(schema), ...useTitles(reference, reference ? values : []) };
  const shown = values.slice(0, TABLE_CHIPS);
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      {shown.map((value) => (
        <Chip key={value} size="small" label={titles[value] ?? value} />
      ))}
      {values.length > shown.length && <Chip size="small" variant="outlined" label={`+${values.length - shown.length}`} />}
    </Box>
  );
}

/** A phone as the console writes it ('+55 (11) 98765.4321'); the stored digits stay what search and CSV read. */
function Phone({ value }: { value: unknown }) {
  usePhoneFormats();
  return <>{typeof value === 'string' ? formatPhone(value) : ''}</>;
}

/** One cell of the generic table, drawn by the column's type (list.json `columns`). */
export function ColumnValue({ column, schema }: { column: RegisterColumn; schema?: RegisterSchema }) {
  const record = useRecordContext<Record<string, unknown> & { id: string }>();
  if (!record) return null;
  const value = valueAt(record, column.field);
  const type = column.type ?? (schema?.type === 'boolean' ? 'boolean' : schema?.type === 'array' ? 'chips' : schema?.format === 'date' ? 'date' : schema?.format === 'date-time' ? 'datetime' : 'text');
  switch (type) {
    case 'boolean':
      return value ? <Check fontSize="small" color="success" aria-label={messages.registers.yes} /> : <Close fontSize="small" color="disabled" aria-label={messages.registers.no} />;
    case 'chips':
      return <Chips values={Array.isArray(value) ? value.map(String) : value ? [String(value)] : []} schema={schema} reference={column.reference} />;
    case 'image':
      return <Avatar src={typeof value === 'string' ? value : undefined} alt="" sx={{ width: 32, height: 32 }} />;
    case 'color':
      return (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Box sx={{ width: 16, height: 16, borderRadius: '50%', bgcolor: typeof value === 'string' ? value : 'transparent', border: 1, borderColor: 'divider' }} />
          {String(value ?? '')}
        </Box>
      );
    case 'date':
      return <>{formatDate(value, false)}</>;
    case 'datetime':
      return <>{formatDate(value, true)}</>;
    case 'phone':
      return <Phone value={value} />;
    case 'money':
      return <>{typeof value === 'number' ? value.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' }) : ''}</>;
    case 'number':
      return <>{typeof value === 'number' ? value.toLocaleString('pt-BR') : ''}</>;
    default: {
      const titles = optionTitles(schema);
      const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
      return <>{titles[text] ?? text}</>;
    }
  }
}
