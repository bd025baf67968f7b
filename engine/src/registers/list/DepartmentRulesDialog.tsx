import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import {
  format, messages, normaliseAutomaticRules, RULE_COMMANDS, validateAutomaticRules,
  type AutomaticRule, type RuleProblem,
} from '@atendimento/schemas';
import { apiRequest } from '../../api/api';
import { showToast } from '../../ui/toast';

const t = messages.routing;

function rulesOf(value: unknown): AutomaticRule[] {
  if (!Array.isArray(value)) return [];
  return value.map((r) => {
    const rule = (r ?? {}) as Record<string, unknown>;
    return {
      command: rule.command === 'sendMessage' || rule.command === 'closeChat' ? rule.command : '',
      arg: typeof rule.arg === 'string' ? rule.arg : '',
      timeInMinutes: typeof rule.timeInMinutes === 'number' || typeof rule.timeInMinutes === 'string' ? rule.timeInMinutes : '',
      repeat: rule.repeat === true,
    };
  });
}

/**
 * The department's automatic message rules (seed 001 §3, §5, §7; docs/routing.md): a table of
 * command (send a message or close the chat), minutes after the customer's last message, text
 * and repeat. 'Salvar' checks each row with the seed's texts ('Selecione um comando valido',
 * 'Selecione uma minutagem valida', 'Adicione o texto da mensagem'), then PATCHes the list
 * under `queueMessages` (minutes as numbers) and toasts 'Regras Salvas'. The server checks the
 * same rules with the department's schema.
 */
export function DepartmentRulesDialog({ department, open, onClose, onSaved }: {
  department: { id: string; displayName?: unknown; queueMessages?: unknown };
  open: boolean;
  onClose: () => void;
  onSaved?: () => void;
}) {
  const [rules, setRules] = useState<AutomaticRule[]>([]);
  const [problems, setProblems] = useState<RuleProblem[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setRules(rulesOf(department.queueMessages));
    setProblems([]);
  }, [open, department.queueMessages]);

  const problem = (index: number, field: RuleProblem['field']) => problems.find((p) => p.index === index && p.field === field)?.message;
  const change = (index: number, patch: Partial<AutomaticRule>) => {
    setRules((current) => current.map((rule, i) => (i === index ? { ...rule, ...patch } : rule)));
    setProblems((current) => current.filter((p) => p.index !== index || !Object.keys(patch).includes(p.field)));
  };

  async function save() {
    const found = validateAutomaticRules(rules);
    setProblems(found);
    if (found.length) return;
    setBusy(true);
    try {
      await apiRequest(`/api/departaments/${encodeURIComponent(department.id)}`, { method: 'PATCH', body: { queueMessages: normaliseAutomaticRules(rules) } });
      showToast(messages.chat.rulesSaved, 'success');
      onSaved?.();
      onClose();
    } catch {
      // apiRequest toasted the server's message.
    } finally {
      setBusy(false);
    }
  }

  const title = format(t.rulesTitle, { department: String(department.displayName ?? department.id) });
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="department-rules-title">
      <DialogTitle id="department-rules-title">{title}</DialogTitle>
      <DialogContent>
        {rules.length === 0 ? (
          <Typography color="text.secondary" sx={{ my: 2 }}>{t.rulesEmpty}</Typography>
        ) : (
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell>{t.ruleCommand}</TableCell>
                <TableCell>{t.ruleMinutes}</TableCell>
                <TableCell>{t.ruleText}</TableCell>
                <TableCell>{t.ruleRepeat}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {rules.map((rule, index) => (
                <TableRow key={index}>
                  <TableCell sx={{ minWidth: 170, verticalAlign: 'top' }}>
                    <TextField
                      select fullWidth size="small" value={rule.command}
                      error={Boolean(problem(index, 'command'))} helperText={problem(index, 'command')}
                      onChange={(event) => change(index, { command: event.target.value as AutomaticRule['command'] })}
                      slotProps={{ select: { displayEmpty: true, SelectDisplayProps: { 'aria-label': `${t.ruleCommand} ${index + 1}` } as object } }}
                    >
                      {Object.entries(RULE_COMMANDS).map(([value, label]) => (
                        <MenuItem key={value} value={value}>{label}</MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                  <TableCell sx={{ width: 120, verticalAlign: 'top' }}>
                    <TextField
                      size="small" type="number" label={t.ruleMinutes} value={rule.timeInMinutes ?? ''}
                      error={Boolean(problem(index, 'timeInMinutes'))} helperText={problem(index, 'timeInMinutes')}
                      onChange={(event) => change(index, { timeInMinutes: event.target.value })}
                      slotProps={{ htmlInput: { min: 1, 'aria-label': `${t.ruleMinutes} ${index + 1}` } }}
                    />
                  </TableCell>
                  <TableCell sx={{ verticalAlign: 'top' }}>
                    <TextField
                      fullWidth size="small" multiline maxRows={4} label={t.ruleText} value={rule.arg ?? ''} disabled={rule.command === 'closeChat'}
                      error={Boolean(problem(index, 'arg'))} helperText={problem(index, 'arg')}
                      onChange={(event) => change(index, { arg: event.target.value })}
                      slotProps={{ htmlInput: { 'aria-label': `${t.ruleText} ${index + 1}` } }}
                    />
                  </TableCell>
                  <TableCell sx={{ verticalAlign: 'top' }}>
                    <Checkbox checked={Boolean(rule.repeat)} onChange={(event) => change(index, { repeat: event.target.checked })} slotProps={{ input: { 'aria-label': `${t.ruleRepeat} ${index + 1}` } }} />
                  </TableCell>
                  <TableCell sx={{ verticalAlign: 'top' }}>
                    <IconButton aria-label={`${t.ruleRemove} ${index + 1}`} onClick={() => {
                      setRules((current) => current.filter((_, i) => i !== index));
                      setProblems([]);
                    }}>
                      <Delete fontSize="small" />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <Button startIcon={<Add />} sx={{ mt: 1 }} onClick={() => setRules((current) => [...current, { command: '', arg: '', timeInMinutes: '', repeat: false }])}>
          {t.ruleAdd}
        </Button>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>{messages.registers.cancel}</Button>
        <Button variant="contained" disabled={busy} onClick={() => void save()}>{messages.registers.save}</Button>
      </DialogActions>
    </Dialog>
  );
}
