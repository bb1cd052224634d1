import { isBlockedAddress, urlProblem } from './url-policy';

describe('endpoint URLs (README "Endpoint URLs and SSRF")', () => {
  it.each([
    ['https://hooks.example.com/energy', false, null],
    ['https://hooks.example.com/energy', true, null],
    ['http://127.0.0.1:4000/hook', false, null],
    ['http://localhost:4000/hook', false, null],
    ['http://[::1]:4000/hook', false, null],
    ['http://127.0.0.1:4000/hook', true, 'url must be an https URL'],
    ['http://hooks.example.com/energy', false, 'url must be an https URL (http only to localhost or 127.0.0.1)'],
    ['ftp://hooks.example.com/energy', false, 'url must be an https URL'],
    ['hooks.example.com/energy', false, 'url must be an absolute URL'],
    ['https://user:pw@hooks.example.com/', false, 'url must not carry a user name or password'],
    ['https://10.1.2.3/hook', true, 'url must not point to a private, loopback or reserved address'],
    ['https://10.1.2.3/hook', false, null],
    ['https://169.254.169.254/latest/meta-data', true, 'url must not point to a private, loopback or reserved address'],
    ['https://[fd00::1]/hook', true, 'url must not point to a private, loopback or reserved address'],
    ['https://api.localhost/hook', true, 'url must not point to a private, loopback or reserved address'],
    ['https://8.8.8.8/hook', true, null],
  ])('%s (production %s): %s', (url, production, problem) => {
    expect(urlProblem(url, production)).toBe(problem);
  });

  it('refuses a URL over 2000 characters', () => {
    expect(urlProblem(`https://example.com/${'a'.repeat(1990)}`, false)).toBe('url must be at most 2000 characters');
  });

  it.each([
    ['127.0.0.1', true],
    ['10.0.0.5', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['100.64.0.1', true],
    ['169.254.169.254', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['93.184.216.34', false],
    ['::1', true],
    ['fe80::1', true],
    ['fc00::1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:93.184.216.34', false],
    ['2606:2800:220:1:248:1893:25c8:1946', false],
    ['not-an-ip', true],
  ])('address %s blocked: %s', (address, blocked) => {
    expect(isBlockedAddress(address)).toBe(blocked);
  });
});
