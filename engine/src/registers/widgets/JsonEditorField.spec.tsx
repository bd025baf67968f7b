import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './JsonEditorField.stories';

const { FlowDefinition, Empty } = composeStories(stories);
const submitted = () => JSON.parse(screen.getByTestId('submitted').textContent!);
const editor = () => screen.getByRole('textbox', { name: 'Definição' }) as HTMLTextAreaElement;

describe('JsonEditorField', () => {
  it('shows the stored value as indented JSON', () => {
    render(<FlowDefinition />);
    expect(editor().value).toBe(JSON.stringify({ start: 'menu', steps: [] }, null, 2));
  });

  it("says 'JSON inválido' while the text does not parse and keeps the last valid value", async () => {
    const user = userEvent.setup();
    render(<FlowDefinition />);
    fireEvent.change(editor(), { target: { value: '{"start": ' } });
    expect(screen.getByText(messages.registers.jsonInvalid)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ definition: { start: 'menu', steps: [] } });
    fireEvent.change(editor(), { target: { value: '{"start": "fim"}' } });
    expect(screen.queryByText(messages.registers.jsonInvalid)).toBeNull();
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ definition: { start: 'fim' } });
  });

  it('an emptied editor clears the field', async () => {
    const user = userEvent.setup();
    render(<Empty />);
    expect(editor().value).toBe('');
    fireEvent.change(editor(), { target: { value: '{"a": 1}' } });
    fireEvent.change(editor(), { target: { value: '  ' } });
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({});
  });
});
