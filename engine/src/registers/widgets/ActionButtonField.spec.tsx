import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { recordedCalls } from '../../stories/fakeApi';
import * as stories from './ActionButtonField.stories';

const { OnRecord, Refused, NewRecord } = composeStories(stories);

describe('ActionButtonField', () => {
  it("calls the API with the record's id and toasts the answer", async () => {
    const user = userEvent.setup();
    render(<OnRecord />);
    await user.click(screen.getByRole('button', { name: 'Gerar QR Code' }));
    expect(await screen.findByText('QR Code gerado!')).toBeTruthy();
    expect(recordedCalls().filter((call) => call.path.startsWith('/api/dm_qrcodes')).map((call) => `${call.method} ${call.path}`)).toEqual(['POST /api/dm_qrcodes/qr-1/generate']);
  });

  it("toasts the server's refusal", async () => {
    const user = userEvent.setup();
    render(<Refused />);
    await user.click(screen.getByRole('button', { name: 'Gerar QR Code' }));
    expect(await screen.findByText('Canal desconectado.')).toBeTruthy();
  });

  it('is disabled on a record not saved yet', () => {
    render(<NewRecord />);
    expect((screen.getByRole('button', { name: 'Gerar QR Code' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
