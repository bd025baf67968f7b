import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format, messages } from '@atendimento/schemas';
import { recordedCalls } from '../../stories/fakeApi';
import * as stories from './DepartmentRulesDialog.stories';

const { DepartmentsWithRules } = composeStories(stories);
const t = messages.routing;

async function openRules(name: string) {
  const user = userEvent.setup();
  render(<DepartmentsWithRules />);
  await screen.findByText(name, {}, { timeout: 5000 });
  const row = screen.getAllByRole('row').find((r) => within(r).queryByText(name))!;
  await user.click(within(row).getByRole('button', { name: t.rulesAction }));
  const dialog = await screen.findByRole('dialog', { name: format(t.rulesTitle, { department: name }) });
  return { user, dialog };
}

describe('DepartmentRulesDialog', () => {
  it('shows the saved rules and refuses a rule without command, minutes or text, with the seed texts', async () => {
    const { user, dialog } = await openRules('Comercial');
    expect((within(dialog).getByRole('textbox', { name: `${t.ruleText} 1` }) as HTMLTextAreaElement).value).toBe('Ainda está aí? Podemos ajudar em algo mais?');
    expect((within(dialog).getByRole('spinbutton', { name: `${t.ruleMinutes} 2` }) as HTMLInputElement).value).toBe('30');
    await user.click(within(dialog).getByRole('button', { name: t.ruleAdd }));
    await user.click(within(dialog).getByRole('button', { name: messages.registers.save }));
    expect(await within(dialog).findByText(messages.validation.ruleCommand)).toBeTruthy();
    // Blank minutes: the generic required rule.
    expect(within(dialog).getByText(messages.validation.requiredFieldRule)).toBeTruthy();
    expect(recordedCalls().some((c) => c.method === 'PATCH')).toBe(false);

    // A send-message rule needs its text; zero minutes are refused.
    await user.click(within(dialog).getByRole('combobox', { name: `${t.ruleCommand} 3` }));
    await user.click(await screen.findByRole('option', { name: 'Enviar mensagem' }));
    await user.click(within(dialog).getByRole('spinbutton', { name: `${t.ruleMinutes} 3` }));
    await user.paste('0');
    await user.click(within(dialog).getByRole('button', { name: messages.registers.save }));
    expect(await within(dialog).findByText(messages.validation.ruleText)).toBeTruthy();
    expect(within(dialog).getByText(messages.validation.ruleMinutes)).toBeTruthy();
    expect(within(dialog).queryByText(messages.validation.requiredFieldRule)).toBeNull();
    expect(within(dialog).queryByText(messages.validation.ruleCommand)).toBeNull();
  });

  it("saves the list under queueMessages with minutes as numbers and toasts 'Regras Salvas'", async () => {
    const { user, dialog } = await openRules('Suporte Técnico');
    expect(within(dialog).getByText(t.rulesEmpty)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: t.ruleAdd }));
    await user.click(within(dialog).getByRole('combobox', { name: `${t.ruleCommand} 1` }));
    await user.click(await screen.findByRole('option', { name: 'Enviar mensagem' }));
    await user.click(within(dialog).getByRole('spinbutton', { name: `${t.ruleMinutes} 1` }));
    await user.paste('10');
    await user.click(within(dialog).getByRole('textbox', { name: `${t.ruleText} 1` }));
    await user.paste('  Seguimos à disposição!  ');
    await user.click(within(dialog).getByRole('checkbox', { name: `${t.ruleRepeat} 1` }));
    await user.click(within(dialog).getByRole('button', { name: t.ruleAdd }));
    await user.click(within(dialog).getByRole('combobox', { name: `${t.ruleCommand} 2` }));
    await user.click(await screen.findByRole('option', { name: 'Encerrar chat' }));
    await user.click(within(dialog).getByRole('spinbutton', { name: `${t.ruleMinutes} 2` }));
    await user.paste('60');
    expect((within(dialog).getByRole('textbox', { name: `${t.ruleText} 2` }) as HTMLTextAreaElement).disabled).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: messages.registers.save }));
    expect(await screen.findByText(messages.chat.rulesSaved)).toBeTruthy();
    const call = recordedCalls().find((c) => c.method === 'PATCH')!;
    expect(call.path).toBe('/api/departaments/suporte');
    expect(call.body).toEqual({ queueMessages: [
      { command: 'sendMessage', arg: 'Seguimos à disposição!', timeInMinutes: 10, repeat: true },
      { command: 'closeChat', timeInMinutes: 60, repeat: false },
    ] });
  });
});
