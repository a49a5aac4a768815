import { expect } from 'chai';
import { partialName, portalDebtor } from '../../../internal/portal/debtor-name';

describe('debtor name on payment pages', () => {
  it('partial: the first letter of each word (at most four) and a fixed mask', () => {
    expect(partialName('Ana María Registro')).to.equal('A••• M••• R•••');
    expect(partialName('  josé   ñúñez ')).to.equal('J••• Ñ•••');
    expect(partialName('Ferretería El Sol de Oriente SA')).to.equal('F••• E••• S••• D•••');
    expect(partialName('Ál')).to.equal('Á•••');
  });

  it('whole unless partial; none without a name', () => {
    expect(portalDebtor('Ana Registro', false)).to.deep.equal({ name: 'Ana Registro', partial: false });
    expect(portalDebtor('Ana Registro', true)).to.deep.equal({ name: 'A••• R•••', partial: true });
    expect(portalDebtor(null, true)).to.equal(null);
    expect(portalDebtor('   ', false)).to.equal(null);
  });
});
