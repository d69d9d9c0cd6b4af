import { describe, expect, it } from 'vitest';
import { silentSideWarning } from '../../../../src-main/service/capture/silent-side-warning.js';

describe('silentSideWarning', () => {
  it('names the recorded output when the other side goes quiet, by the system side\'s own device', () => {
    const devices = { microphone: 'client', system: 'alsa_output.pci.monitor' };
    const warning = silentSideWarning('system', 61.4, devices);
    expect(warning).toMatchObject({ code: 'silent_side', side: 'system' });
    expect(warning.message).toContain('silent for 61 s while you talk');
    expect(warning.message).toContain('(alsa_output.pci.monitor)');
  });

  it('says "the shared audio" when the client sends the system side (Windows and macOS loopback), whatever the microphone is', () => {
    const warning = silentSideWarning('system', 60, { microphone: 'default', system: 'client' });
    expect(warning.message).toContain('(the shared audio)');
  });

  it('asks to check the microphone when the person\'s side goes quiet', () => {
    const warning = silentSideWarning('microphone', 75, { microphone: 'default', system: 'default' });
    expect(warning).toMatchObject({ side: 'microphone' });
    expect(warning.message).toMatch(/your microphone has been silent for 75 s/);
  });
});
