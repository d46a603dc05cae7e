import { describe, expect, it } from 'vitest';
import { classifyUserAgent, parsedDevice, quickDevice } from '../../worker/tracking/device';
import list from '../bench/user-agents.txt?raw';

// The classification's shortcut (issue 16) must answer what ua-parser answers, for every user
// agent the tracking bench sends and the shapes it leaves to ua-parser.
const agents = list.split('\n').filter((line) => line && !line.startsWith('#'));

describe('quick device classification', () => {
  it('agrees with ua-parser on all of the bench user agents', () => {
    expect(agents.length).toBeGreaterThan(250);
    const quick = agents.filter((ua) => quickDevice(ua) !== null);
    // Most real traffic takes the shortcut (iPhones, iPads, desktops).
    expect(quick.length).toBeGreaterThan(agents.length / 2);
    const disagreements = quick.filter((ua) => quickDevice(ua) !== parsedDevice(ua));
    expect(disagreements).toEqual([]);
    for (const ua of agents) expect(classifyUserAgent(ua).device).toBe(parsedDevice(ua));
  });

  it('leaves Android, consoles, TVs and touch Windows to ua-parser', () => {
    for (const ua of [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox One) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0 Safari/537.36 Edge/18.19041',
      'Mozilla/5.0 (X11; Linux aarch64; SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0 Safari/537.36',
      'Mozilla/5.0 (Windows NT 10.0; ARM; Touch; Tablet PC 2.0) like Gecko',
    ]) {
      expect(quickDevice(ua)).toBeNull();
    }
    expect(
      quickDevice('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Safari/605.1.15'),
    ).toBe('desktop');
  });
});
