import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import * as stories from './Boot.stories';
import { recordedCalls } from '../stories/fakeApi';

const { Ready, InactiveTenant, RecoversOnThirdAttempt, Unreachable } = composeStories(stories);

const attempts = () => recordedCalls().filter((call) => call.path === '/api/master/tenants/current/appConfig').length;

describe('Boot', () => {
  it('renders the app with the fetched configuration', async () => {
    render(<Ready />);
    expect(await screen.findByText('App de Acme Atendimento')).toBeTruthy();
    expect(attempts()).toBe(1);
  });

  it("shows 'Acesso Desabilitado.' at once on 403", async () => {
    render(<InactiveTenant />);
    expect(await screen.findByText('Acesso Desabilitado.')).toBeTruthy();
    expect(screen.getByText('Tenant não ativo (contactar administrador)')).toBeTruthy();
    expect(attempts()).toBe(1);
  });

  it('retries a failing configuration fetch', async () => {
    render(<RecoversOnThirdAttempt />);
    expect(await screen.findByText('App de Acme Atendimento')).toBeTruthy();
    expect(attempts()).toBe(3);
  });

  it("gives up after 5 attempts with 'Não foi possivel contactar o sistema'", async () => {
    render(<Unreachable />);
    expect(await screen.findByText('Não foi possivel contactar o sistema')).toBeTruthy();
    expect(attempts()).toBe(5);
  });
});
